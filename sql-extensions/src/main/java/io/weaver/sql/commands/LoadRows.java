package io.weaver.sql.commands;

import io.weaver.catalogue.LoadResultField;
import io.weaver.load.records.LoadResult;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * The result rows of the LOAD WEAVER statements: the fields of a load's result ({@link
 * LoadResultField.View#RESULT}), as listed in docs/table-contract.md, "Load".
 */
final class LoadRows {
  static final StructType SCHEMA = LoadResultField.schema(LoadResultField.View.RESULT);

  private LoadRows() {}

  static List<Row> rows(List<LoadResult> results) {
    return results.stream().map(LoadResult::toRow).toList();
  }
}
