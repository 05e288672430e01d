package io.weaver.sql.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.spark.sql.SparkSession;

/**
 * The one Spark + Delta session with Weaver's extension that this module's tests use (started once
 * per test JVM and extension order; item catalogs persist in it, so each test uses its own item
 * names). A test class that uses it stops it when done ({@link #stop()}), so that the next class
 * starts from a new SparkContext.
 */
public final class SqlSession {
  /** Weaver's extension listed before Delta's. */
  public static final String WEAVER_FIRST =
      "io.weaver.sql.WeaverSparkSessionExtensions,io.delta.sql.DeltaSparkSessionExtension";

  /** Delta's extension listed before Weaver's (its resolution rules run first). */
  public static final String DELTA_FIRST =
      "io.delta.sql.DeltaSparkSessionExtension,io.weaver.sql.WeaverSparkSessionExtensions";

  private static SparkSession spark;
  private static String extensions;

  private SqlSession() {}

  public static SparkSession get() {
    return get(WEAVER_FIRST);
  }

  /**
   * The session with {@code order} as {@code spark.sql.extensions}; a session with another order is
   * stopped first (the extensions are fixed when the SparkContext starts).
   */
  public static synchronized SparkSession get(String order) {
    if (spark != null && (!order.equals(extensions) || spark.sparkContext().isStopped())) {
      spark.stop();
      spark = null;
    }
    if (spark == null) {
      extensions = order;
      String warehouse;
      try {
        warehouse = Files.createTempDirectory("weaver-reliability-warehouse").toString();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      spark =
          SparkSession.builder()
              .master("local[2]")
              .appName("weaver-sql-reliability-test")
              .config("spark.ui.enabled", "false")
              .config("spark.sql.shuffle.partitions", "2")
              .config("spark.databricks.delta.snapshotPartitions", "1")
              .config("spark.sql.warehouse.dir", warehouse)
              .config("spark.sql.extensions", order)
              .config(
                  "spark.sql.catalog.spark_catalog",
                  "org.apache.spark.sql.delta.catalog.DeltaCatalog")
              .getOrCreate();
      // As connector's SharedSpark: Spark's and Delta's INFO lines (tens of thousands per class,
      // written to surefire's output files) cost time and no test reads them.
      spark.sparkContext().setLogLevel("WARN");
    }
    return spark;
  }

  /**
   * Stops the session: a session built later with {@code getOrCreate()} would otherwise be handed
   * this one (with its extension order).
   */
  public static synchronized void stop() {
    if (spark != null) {
      spark.stop();
      spark = null;
      extensions = null;
    }
  }

  /**
   * The messages of {@code t} and its causes, one per line (Spark may wrap what a command threw).
   */
  public static String messages(Throwable t) {
    StringBuilder text = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      text.append(c.getClass().getName()).append(": ").append(c.getMessage()).append('\n');
    }
    return text.toString();
  }
}
