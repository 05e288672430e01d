package io.weaver.lakehouse;

import io.weaver.catalyst.delta.DeltaCatalogs;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;

/**
 * The two places the item catalog reaches into Spark internals ({@code sessionState}): the session
 * catalog to delegate to, and the session's Hadoop configuration. Kept in one class so a new Spark
 * version touches one place (move to a {@code compat} package when there is one).
 */
final class SessionAccess {
  private SessionAccess() {}

  static org.apache.spark.sql.classic.SparkSession session() {
    return (org.apache.spark.sql.classic.SparkSession) SparkSession.active();
  }

  /** The catalog for Delta path identifiers ({@link DeltaCatalogs#forPaths}). */
  static StagingTableCatalog deltaCatalog() {
    return DeltaCatalogs.forPaths(session().sessionState().catalogManager().v2SessionCatalog());
  }

  /** The session's Hadoop configuration, including {@code spark.hadoop.*} set at runtime. */
  static Configuration hadoopConf() {
    return session().sessionState().newHadoopConf();
  }
}
