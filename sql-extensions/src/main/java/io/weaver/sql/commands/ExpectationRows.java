package io.weaver.sql.commands;

import io.weaver.load.expectations.ExpectationCount;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The {@code expectations} column of the LOAD WEAVER and PLAN WEAVER rows: per expectation, the
 * rows violating it (docs/table-contract.md, "Expectations").
 */
final class ExpectationRows {
  static final StructType SCHEMA =
      new StructType()
          .add("expectation", DataTypes.StringType, false)
          .add("action", DataTypes.StringType, false)
          .add("rows_violating", DataTypes.LongType, false)
          .add("sample_keys", DataTypes.createArrayType(DataTypes.StringType, false), false);

  private ExpectationRows() {}

  static List<Row> rows(List<ExpectationCount> counts) {
    return counts.stream()
        .<Row>map(
            c ->
                new GenericRowWithSchema(
                    new Object[] {c.expectation(), c.action(), c.rowsViolating(), c.sampleKeys()},
                    SCHEMA))
        .toList();
  }
}
