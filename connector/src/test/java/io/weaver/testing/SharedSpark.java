package io.weaver.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/** The one local SparkSession (with Delta) that every test in this JVM shares. */
public final class SharedSpark {
  private static SparkSession spark;

  private SharedSpark() {}

  /**
   * The shared session; a new one when a test class stopped it (some tests must build a session
   * with their own confs).
   */
  public static synchronized SparkSession get() {
    if (spark == null || spark.sparkContext().isStopped()) {
      Path warehouse;
      try {
        warehouse = Files.createTempDirectory("weaver-test-warehouse");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      spark =
          SparkSession.builder()
              .master("local[2]")
              .appName("weaver-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.sql.shuffle.partitions", "2")
              .config("spark.default.parallelism", "2")
              .config("spark.databricks.delta.snapshotPartitions", "1")
              .config("spark.sql.warehouse.dir", warehouse.toString())
              .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
              .config(
                  "spark.sql.catalog.spark_catalog",
                  "org.apache.spark.sql.delta.catalog.DeltaCatalog")
              .config("spark.sql.session.timeZone", "UTC")
              .getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
    }
    return spark;
  }
}
