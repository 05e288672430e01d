package io.weaver.sql.session;

import io.weaver.sql.testing.SqlSession;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Weaver's extension listed before Delta's: Delta's parser wraps Weaver's. */
class WeaverFirstSessionTest extends SessionStatementsContract {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    // Its own session (the extension order is a static conf); stopped after the class.
    spark = SqlSession.get(SqlSession.WEAVER_FIRST);
  }

  @AfterAll
  static void stop() {
    SqlSession.stop();
  }

  @Override
  SparkSession spark() {
    return spark;
  }
}
