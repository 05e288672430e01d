package io.weaver.load.spec;

import static org.apache.spark.sql.functions.lit;

import java.time.Instant;
import org.apache.spark.sql.Column;

/** Values of the managed columns, as literals that do not depend on the session time zone. */
public final class ManagedValues {
  /**
   * {@code row_delete_datetime} of a live row (docs/table-contract.md, "Managed columns"):
   * 9999-12-31 00:00:00 UTC.
   */
  public static final Instant LIVE_SENTINEL = Instant.parse("9999-12-31T00:00:00Z");

  private ManagedValues() {}

  /** A {@code timestamp} literal holding the instant's microseconds since the epoch. */
  public static Column timestamp(Instant instant) {
    // An Instant becomes a TimestampType literal in UTC micros; no string parsing, no zone.
    return lit(instant);
  }

  public static Column liveSentinel() {
    return timestamp(LIVE_SENTINEL);
  }

  /** The named columns of a row as one JSON object (a key or a whole row, for the catalogue). */
  public static Column json(java.util.List<String> names) {
    return org.apache.spark.sql.functions.to_json(struct(names));
  }

  /**
   * The named columns of a row as one JSON object with every column, a null one as JSON {@code
   * null} ({@code _.LoadQuarantine.row_json} promises the whole row; Spark's {@code to_json} leaves
   * null fields out unless told otherwise).
   */
  public static Column jsonWithNulls(java.util.List<String> names) {
    return org.apache.spark.sql.functions.to_json(
        struct(names), java.util.Map.of("ignoreNullFields", "false"));
  }

  private static Column struct(java.util.List<String> names) {
    return org.apache.spark.sql.functions.struct(
        names.stream()
            .map(n -> org.apache.spark.sql.functions.col(quote(n)))
            .toArray(Column[]::new));
  }

  /** An identifier quoted for Spark's attribute parser (dots and spaces stay in the name). */
  public static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
