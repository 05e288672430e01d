package io.weaver.sql.session;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Weaver's extension listed before Delta's: Delta's parser wraps Weaver's. */
class WeaverFirstSessionTest extends SessionStatementsContract {
  @TempDir static Path warehouse;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        startSession(
            warehouse,
            "io.weaver.sql.WeaverSparkSessionExtensions,io.delta.sql.DeltaSparkSessionExtension");
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @Override
  SparkSession spark() {
    return spark;
  }
}
