package io.weaver.sql.session;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Delta's extension listed before Weaver's: Weaver's parser wraps Delta's. */
class DeltaFirstSessionTest extends SessionStatementsContract {
  @TempDir static Path warehouse;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark =
        startSession(
            warehouse,
            "io.delta.sql.DeltaSparkSessionExtension,io.weaver.sql.WeaverSparkSessionExtensions");
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
