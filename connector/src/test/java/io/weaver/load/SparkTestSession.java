package io.weaver.load;

import io.weaver.testing.SharedSpark;
import org.apache.spark.sql.SparkSession;

/** The load tests' Spark session: the one the whole test JVM shares. */
final class SparkTestSession {
  private SparkTestSession() {}

  static SparkSession get() {
    return SharedSpark.get();
  }
}
