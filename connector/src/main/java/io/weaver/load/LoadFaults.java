package io.weaver.load;

import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.spark_partition_id;
import static org.apache.spark.sql.functions.when;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Fault injection for tests (and for nobody else), installed into loads as {@link FaultPoints}
 * while a phase is armed. One shot: the fault disarms itself when it fires. Two kinds:
 *
 * <ul>
 *   <li>a <em>stop</em> ({@link Phase#AFTER_DIFF}, {@link Phase#AFTER_COMMIT}, {@link
 *       Phase#AFTER_HISTORY}): the load ends with {@link InjectedFault}, as if the process had died
 *       there — nothing after that point runs, not even the failure handling;
 *   <li>a <em>failure</em> the process survives ({@link Phase#DURING_WRITE}: a Spark task of the
 *       write job throws; {@link Phase#DURING_HISTORY}: the history write throws {@link
 *       InjectedFailure}); the load's own error handling runs.
 * </ul>
 */
public final class LoadFaults {
  /** Where a load can be stopped or made to fail. */
  public enum Phase {
    /** Stop: the change set and counts are computed; gates and write have not run. */
    AFTER_DIFF,
    /** Failure: a task of the write job (the MERGE, or the overwrite) throws. */
    DURING_WRITE,
    /** Stop: the Delta commit landed; history and state are not written. */
    AFTER_COMMIT,
    /** Failure: writing the load's history row throws (the Delta commit, if any, landed). */
    DURING_HISTORY,
    /** Stop: history is written; state is not. */
    AFTER_HISTORY
  }

  /** A stop: the process "died" at the phase. */
  public static final class InjectedFault extends RuntimeException {
    InjectedFault(Phase phase) {
      super("injected fault at " + phase);
    }
  }

  /** A failure the process survives (an I/O error, a lost executor, a full disk). */
  public static final class InjectedFailure extends RuntimeException {
    InjectedFailure(Phase phase) {
      super("injected failure at " + phase);
    }
  }

  private static final AtomicReference<Phase> ARMED = new AtomicReference<>();

  /** The armed fault as the engine's hook: each point fires once, when its phase is armed. */
  static final FaultPoints HOOK =
      new FaultPoints() {
        @Override
        public void stop(Phase phase) {
          reach(phase);
        }

        @Override
        public void fail(Phase phase) {
          LoadFaults.fail(phase);
        }

        @Override
        public Dataset<Row> inTasks(Phase phase, Dataset<Row> rows) {
          return LoadFaults.inTasks(phase, rows);
        }
      };

  private LoadFaults() {}

  public static void arm(Phase phase) {
    ARMED.set(phase);
  }

  public static void disarm() {
    ARMED.set(null);
  }

  /** Whether a fault is still armed (it has not fired yet). */
  public static boolean armed() {
    return ARMED.get() != null;
  }

  /** A stop point: throws {@link InjectedFault} when {@code phase} is armed. */
  private static void reach(Phase phase) {
    if (ARMED.compareAndSet(phase, null)) {
      throw new InjectedFault(phase);
    }
  }

  /** A failure point on the driver: throws {@link InjectedFailure} when {@code phase} is armed. */
  private static void fail(Phase phase) {
    if (ARMED.compareAndSet(phase, null)) {
      throw new InjectedFailure(phase);
    }
  }

  /**
   * The rows a write job reads; when {@code phase} is armed, every task reading them throws inside
   * the job (a real Spark task failure, not a driver-side exception). Unarmed: the same dataset.
   */
  private static Dataset<Row> inTasks(Phase phase, Dataset<Row> rows) {
    if (!ARMED.compareAndSet(phase, null)) {
      return rows;
    }
    // spark_partition_id() is evaluated per task, so the error cannot be folded on the driver.
    return rows.filter(
        when(spark_partition_id().geq(lit(0)), raise_error(lit("injected failure at " + phase)))
            .otherwise(lit(true))
            .cast("boolean"));
  }
}
