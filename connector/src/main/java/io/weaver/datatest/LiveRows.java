package io.weaver.datatest;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.timestamp_micros;

import io.delta.tables.DeltaTable;
import io.weaver.metadata.ManagedColumns;
import io.weaver.workspace.Target;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Reads the live rows of a built Delta table by its location. */
final class LiveRows {
  /** {@code 9999-12-31 00:00:00} UTC in microseconds: the delete time of a live row. */
  static final long LIVE_MICROS = 253_402_214_400_000_000L;

  private LiveRows() {}

  static boolean built(SparkSession spark, String path) {
    return DeltaTable.isDeltaTable(spark, path);
  }

  /**
   * The live rows at {@code path}. A table without Weaver's delete time (a Delta table Weaver does
   * not manage) has every row live.
   */
  static Dataset<Row> read(SparkSession spark, String path) {
    Dataset<Row> all = spark.read().format("delta").load(path);
    if (Arrays.asList(all.columns()).contains(ManagedColumns.DELETE_TIME)) {
      // An instant, not a timestamp literal: the comparison holds in any session time zone.
      return all.where(
          col(quote(ManagedColumns.DELETE_TIME)).equalTo(timestamp_micros(lit(LIVE_MICROS))));
    }
    return all;
  }

  /** The columns an author sees: every column except the managed ones. */
  static Column[] businessColumns(Dataset<Row> rows) {
    List<String> managed = ManagedColumns.names(Target.LAKEHOUSE);
    return Arrays.stream(rows.columns())
        .filter(c -> !managed.contains(c))
        .map(c -> col(quote(c)))
        .toArray(Column[]::new);
  }

  /** An identifier quoted for Spark's attribute parser (dots and spaces stay in the name). */
  static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  static Column[] columns(List<String> names) {
    return names.stream().map(n -> col(quote(n))).toArray(Column[]::new);
  }

  /** True when every column of {@code names} is non-null. */
  static Column allPresent(List<String> names) {
    Column present = lit(true);
    for (String name : names) {
      present = present.and(col(quote(name)).isNotNull());
    }
    return present;
  }
}
