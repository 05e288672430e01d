package io.weaver.catalyst.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.spark.sql.SparkSession;

/**
 * The one local SparkSession (no Delta: the rules need none) that this module's tests share; a test
 * that changes a runtime conf sets it back.
 */
public final class LocalSpark {
  private static SparkSession spark;

  private LocalSpark() {}

  public static synchronized SparkSession get() {
    if (spark == null || spark.sparkContext().isStopped()) {
      String warehouse;
      try {
        warehouse = Files.createTempDirectory("weaver-catalyst-warehouse").toString();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      spark =
          SparkSession.builder()
              .master("local[2]")
              .appName("weaver-catalyst-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.sql.shuffle.partitions", "2")
              .config("spark.sql.warehouse.dir", warehouse)
              .getOrCreate();
    }
    return spark;
  }
}
