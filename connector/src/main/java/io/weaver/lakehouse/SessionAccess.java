package io.weaver.lakehouse;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.delta.catalog.DeltaCatalog;

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

  /**
   * Delta's catalog for path identifiers: the session catalog when it is Delta's (the usual {@code
   * spark.sql.catalog.spark_catalog=…DeltaCatalog}), else a private {@link DeltaCatalog} that
   * delegates to whatever session catalog is configured.
   */
  static DeltaCatalog deltaCatalog() {
    CatalogPlugin sessionCatalog = session().sessionState().catalogManager().v2SessionCatalog();
    if (sessionCatalog instanceof DeltaCatalog delta) {
      return delta;
    }
    DeltaCatalog own = new DeltaCatalog();
    own.setDelegateCatalog(sessionCatalog);
    return own;
  }

  /** The session's Hadoop configuration, including {@code spark.hadoop.*} set at runtime. */
  static Configuration hadoopConf() {
    return session().sessionState().newHadoopConf();
  }
}
