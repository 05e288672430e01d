package io.weaver.sql.commands;

import io.weaver.load.records.LoadResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The result rows of the LOAD WEAVER statements: exactly the names listed in
 * docs/table-contract.md, "Load".
 */
final class LoadRows {
  static final StructType SCHEMA =
      new StructType()
          .add("load_id", DataTypes.StringType, false)
          .add("table_id", DataTypes.StringType, false)
          .add("status", DataTypes.StringType, false)
          .add("rows_inserted", DataTypes.LongType, false)
          .add("rows_updated", DataTypes.LongType, false)
          .add("rows_deleted", DataTypes.LongType, false)
          .add("rows_revived", DataTypes.LongType, false)
          .add("rows_unchanged", DataTypes.LongType, false)
          .add("rows_rejected", DataTypes.LongType, false)
          .add("target_live_rows_before", DataTypes.LongType, false)
          .add("target_live_rows_after", DataTypes.LongType, false)
          .add("delta_version", DataTypes.LongType, false)
          .add("gates_waived", DataTypes.BooleanType, false)
          .add("duration_ms", DataTypes.LongType, false)
          .add("message", DataTypes.StringType, true)
          .add("warnings", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("rows_quarantined", DataTypes.LongType, false)
          .add("rows_stale", DataTypes.LongType, false)
          .add("expectations", DataTypes.createArrayType(ExpectationRows.SCHEMA, false), false);

  private LoadRows() {}

  static List<Row> rows(List<LoadResult> results) {
    return results.stream().map(LoadRows::row).toList();
  }

  /** One result's row: each value placed by its name into {@link #SCHEMA}'s order. */
  static Row row(LoadResult result) {
    Map<String, Object> values = result.toMap();
    if (!values.keySet().equals(Set.of(SCHEMA.fieldNames()))) {
      throw new IllegalStateException(
          "a load result has the fields "
              + values.keySet()
              + " but the LOAD WEAVER rows have "
              + List.of(SCHEMA.fieldNames()));
    }
    Object[] row = new Object[SCHEMA.size()];
    for (int i = 0; i < row.length; i++) {
      row[i] = values.get(SCHEMA.fields()[i].name());
    }
    row[SCHEMA.fieldIndex("expectations")] = ExpectationRows.rows(result.expectations());
    return new GenericRowWithSchema(row, SCHEMA);
  }
}
