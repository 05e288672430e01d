package io.weaver.catalyst.compat;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Moves a query into another session of the same Spark application: what it computes is unchanged
 * (its analysed plan, the same cached data), while the session's confs govern how its result is
 * written. Delta's writer takes its Parquet settings from the session of the Dataset it writes, and
 * a load's rows are built in the caller's session; the engine's writing session is where Weaver's
 * own write settings are (EngineSessions). {@code org.apache.spark.sql.classic} is not a stable
 * API, so it is reached here only.
 */
public final class SessionPlans {
  private SessionPlans() {}

  /** {@code rows} as a Dataset of {@code session}, or {@code rows} when it already is one. */
  public static Dataset<Row> inSession(SparkSession session, Dataset<Row> rows) {
    if (rows.sparkSession() == session) {
      return rows;
    }
    return org.apache.spark.sql.classic.Dataset.ofRows(
        (org.apache.spark.sql.classic.SparkSession) session, rows.queryExecution().analyzed());
  }
}
