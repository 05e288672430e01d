package io.weaver.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/** The one local Spark session shared by the load tests: Delta warm-up is paid once per JVM. */
final class SparkTestSession {
  private static SparkSession session;

  private SparkTestSession() {}

  static synchronized SparkSession get() {
    if (session == null) {
      Path warehouse;
      try {
        warehouse = Files.createTempDirectory("weaver-load-warehouse");
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      session =
          SparkSession.builder()
              .master("local[2]")
              .appName("weaver-load-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.sql.shuffle.partitions", "2")
              .config("spark.databricks.delta.snapshotPartitions", "1")
              .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
              .config(
                  "spark.sql.catalog.spark_catalog",
                  "org.apache.spark.sql.delta.catalog.DeltaCatalog")
              .config("spark.sql.warehouse.dir", warehouse.toString())
              .getOrCreate();
      session.sparkContext().setLogLevel("WARN");
    }
    return session;
  }
}
