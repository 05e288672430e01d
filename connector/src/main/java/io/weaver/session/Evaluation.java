package io.weaver.session;

import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.math.BigInt;

/**
 * How a process's queries are evaluated: interpreted while everything it reads is small, compiled
 * (Spark's defaults) otherwise.
 *
 * <p>Spark compiles each new query shape to Java (whole-stage code generation and compiled
 * expressions, by Janino), and the JIT then compiles Janino. That pays off over many rows, and in a
 * long-lived session whose shapes repeat. A CLI call over a small lakehouse is neither: one process
 * runs a hundred or so distinct small queries (Build's and the loads' catalogue reads, state,
 * records, the diffs of small Tables) once each. Measured (docs/performance.md, "Interpreted
 * evaluation for a small lakehouse"): a no-change {@code bin/weaver run} of examples/logistics 28.2
 * s interpreted against 36.3 s compiled; a 1M-row load 9.2 s interpreted against 6.0 s compiled.
 *
 * <p>So the CLI starts a session over a small lakehouse interpreted ({@link #startInterpreted}),
 * and the first load whose staging may hold more than {@link #SMALL_BYTES} (a source outside the
 * lakehouse: a path, a catalog table, a generated DataFrame) turns compiled code back on for the
 * rest of the process ({@link #forInput}). Sessions Weaver makes beside a caller's inherit its mode
 * ({@link #inherit}). Evaluation mode changes no result, only speed; a user's session (a
 * notebook's, spark-submit's) is never switched.
 */
public final class Evaluation {
  /** At most this many bytes read: interpreted. */
  public static final long SMALL_BYTES = 8L << 20;

  public static final String WHOLE_STAGE = "spark.sql.codegen.wholeStage";

  /** Spark's choice between compiled and interpreted expressions (an internal Spark setting). */
  public static final String FACTORY_MODE = "spark.sql.codegen.factoryMode";

  /** Spark's default for {@link #FACTORY_MODE}: compiled, interpreted where compiling fails. */
  static final String FACTORY_DEFAULT = "FALLBACK";

  private static final Logger LOG = LoggerFactory.getLogger(Evaluation.class);

  /** The session of the process that runs interpreted, while it does; else null. */
  private static SparkSession interpreted;

  private Evaluation() {}

  /** The confs of an interpreted session, to build one with. */
  public static Map<String, String> interpretedConfs() {
    return Map.of(WHOLE_STAGE, "false", FACTORY_MODE, "NO_CODEGEN");
  }

  /** Records that {@code spark}, built with {@link #interpretedConfs}, is the process's session. */
  public static synchronized void startInterpreted(SparkSession spark) {
    interpreted = spark;
  }

  /**
   * Turns compiled code back on, for {@code session}, {@code input}'s and the process's session
   * (later ones inherit it), when the process runs interpreted and {@code input}'s estimated size
   * (Spark's plan statistics: file sizes, a Delta snapshot's size, a local relation's) is above
   * {@link #SMALL_BYTES} or unknown.
   *
   * @return whether this call turned it on
   */
  public static boolean forInput(SparkSession session, Dataset<?> input) {
    SparkSession process;
    synchronized (Evaluation.class) {
      process = interpreted;
    }
    if (process == null || process.sparkContext() != session.sparkContext()) {
      return false;
    }
    BigInt size = estimatedSize(input);
    if (size != null && size.compare(BigInt.apply(SMALL_BYTES)) <= 0) {
      return false;
    }
    synchronized (Evaluation.class) {
      if (interpreted == null) {
        return false;
      }
      compiled(interpreted);
      compiled(session);
      compiled(input.sparkSession()); // a SQL Table's staging runs in a session of its own
      interpreted = null;
      LOG.info(
          "A load's input is estimated at {} bytes: queries are compiled from here on",
          size == null ? "an unknown number of" : size.toString());
      return true;
    }
  }

  /**
   * Gives {@code made}, a session just made beside {@code caller} with {@code newSession()} (which
   * starts from the context's confs, not the caller's), the caller's evaluation mode.
   */
  public static void inherit(SparkSession caller, SparkSession made) {
    made.conf()
        .set(WHOLE_STAGE, Boolean.toString(caller.sessionState().conf().wholeStageEnabled()));
    made.conf().set(FACTORY_MODE, caller.conf().get(FACTORY_MODE, FACTORY_DEFAULT));
  }

  private static void compiled(SparkSession session) {
    session.conf().set(WHOLE_STAGE, "true");
    session.conf().set(FACTORY_MODE, FACTORY_DEFAULT);
  }

  /** Spark's estimate of {@code input}'s size in bytes; null when it has none. */
  private static BigInt estimatedSize(Dataset<?> input) {
    try {
      return input.queryExecution().optimizedPlan().stats().sizeInBytes();
    } catch (Exception unknown) { // an input that does not analyze fails later, as it would
      return null;
    }
  }
}
