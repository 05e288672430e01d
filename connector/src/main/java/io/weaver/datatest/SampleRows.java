package io.weaver.datatest;

import io.weaver.json.PlainRows;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/** Violating rows as plain Java values: what a sample carries to JSON, Python and SQL alike. */
final class SampleRows {
  private SampleRows() {}

  static List<Map<String, Object>> of(List<Row> rows) {
    return rows.stream().map(PlainRows::row).toList();
  }
}
