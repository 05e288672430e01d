package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short end-to-end run in a real Spark session with the Weaver and Delta extensions: Delta works,
 * and Weaver's statements run. CI also runs this class on the Spark 4.1.3 + Delta 4.3.1 profile.
 */
class SmokeTest {
  @TempDir static Path dir;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    // Its own session: the Weaver extension and spark.weaver.workspace are static confs here.
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("weaver-smoke")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.databricks.delta.snapshotPartitions", "1")
            .config("spark.sql.warehouse.dir", dir.resolve("warehouse").toString())
            .config(
                "spark.sql.extensions",
                "io.weaver.sql.WeaverSparkSessionExtensions,io.delta.sql.DeltaSparkSessionExtension")
            .config(
                "spark.sql.catalog.spark_catalog",
                "org.apache.spark.sql.delta.catalog.DeltaCatalog")
            .config(
                "spark.weaver.workspace",
                BinWeaverCheckTest.projectRoot().resolve("examples/logistics").toString())
            .getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @Test
  void deltaTablesWork() {
    String path = dir.resolve("t").toString();
    spark.range(5).write().format("delta").save(path);
    spark.sql("UPDATE delta.`" + path + "` SET id = id + 10 WHERE id = 0");
    Row row = spark.sql("SELECT count(*), max(id) FROM delta.`" + path + "`").first();
    assertEquals(5L, row.getLong(0));
    assertEquals(10L, row.getLong(1));
  }

  @Test
  void checkWeaverOnTheExampleFindsNothing() {
    assertEquals(0L, spark.sql("CHECK WEAVER").count());
  }
}
