package io.weaver.bench;

import io.weaver.embedded.EmbeddedSession;
import io.weaver.session.Evaluation;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * The benchmarks' session: the CLI's ({@link EmbeddedSession}), with compiled code from the start.
 * A benchmark's lakehouse is empty when its session starts, which would start it interpreted
 * ({@link Evaluation}) until its first large load, and the approaches it compares must all run in
 * one mode. {@code -Dspark.sql.codegen.wholeStage=false} in {@code WEAVER_JAVA_OPTS} still chooses.
 */
final class BenchSession {
  private BenchSession() {}

  static SparkSession create(Path lakehouse, List<String> items) {
    if (System.getProperty(Evaluation.WHOLE_STAGE) == null) {
      System.setProperty(Evaluation.WHOLE_STAGE, "true");
    }
    return EmbeddedSession.create(lakehouse, items, Optional.of("local[*]"));
  }
}
