package io.weaver.testing;

import io.weaver.session.Evaluation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The one local SparkSession (with Delta) that every test in this JVM shares.
 *
 * <p>It evaluates queries as the CLI does over a small lakehouse, interpreted ({@link
 * Evaluation#interpretedConfs}): these suites' tables are a few rows, and a test JVM runs thousands
 * of distinct small queries once each, as a CLI call does. Six load suites took 8:51 min instead of
 * 10:52 (docs/performance.md, "Interpreted evaluation for a small lakehouse"). Compiled code, what
 * a notebook runs, is tested by the differential test's direct run ({@link #compiled}), the
 * sql-extensions suites (notebook sessions), the integration tests and the benchmarks; {@code
 * -Dweaver.tests.compiled=true} runs these suites compiled too.
 */
public final class SharedSpark {
  /** Runs the shared session with compiled code, Spark's default. */
  public static final String COMPILED_PROPERTY = "weaver.tests.compiled";

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
      SparkSession.Builder builder = SparkSession.builder();
      if (!Boolean.getBoolean(COMPILED_PROPERTY)) {
        Evaluation.interpretedConfs().forEach(builder::config);
      }
      spark =
          builder
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

  /** A body run with compiled code in the shared session, which is then put back as it was. */
  public interface Body {
    void run() throws Exception;
  }

  /** Runs {@code body} with compiled code (Spark's defaults) in the shared session. */
  public static void compiled(Body body) throws Exception {
    SparkSession session = get();
    Map<String, String> before = new HashMap<>();
    for (String key : Evaluation.interpretedConfs().keySet()) {
      before.put(key, session.conf().get(key));
      session.conf().unset(key);
    }
    try {
      body.run();
    } finally {
      before.forEach(session.conf()::set);
    }
  }
}
