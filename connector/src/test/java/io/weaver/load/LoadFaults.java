package io.weaver.load;

import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.spark_partition_id;
import static org.apache.spark.sql.functions.when;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Fault injection for tests: {@link #arm} installs a one-shot fault as the {@link FaultPoints} of
 * the calling thread, so loads that thread starts carry it and loads of other threads do not. The
 * fault disarms itself when it fires. Two kinds:
 *
 * <ul>
 *   <li>a <em>stop</em> ({@link Phase#AFTER_DIFF}, {@link Phase#AFTER_COMMIT}, {@link
 *       Phase#AFTER_HISTORY}): the load ends with {@link InjectedFault}, as if the process had died
 *       there — nothing after that point runs, not even the failure handling;
 *   <li>a <em>failure</em> the process survives ({@link Phase#DURING_WRITE}: a Spark task of the
 *       write job throws; {@link Phase#DURING_HISTORY}: the history write throws {@link
 *       InjectedFailure}); the load's own error handling runs.
 * </ul>
 *
 * <p>Lives in the connector's test jar: the tests of sql-extensions and the Python package's tests
 * (through the JVM, on their classpath) arm it too.
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
    AFTER_HISTORY,
    /** Stop: every Table of an item's load committed; the item's publish has not. */
    BEFORE_PUBLISH,
    /** Stop: the item's publish committed; nothing after it ran. */
    AFTER_PUBLISH
  }

  /**
   * A stop: the process "died" at the phase. An {@link Error}, not an exception, so that no
   * production {@code catch (Exception e)} can catch it and turn it into a "failed" result — a
   * process that dies runs no handler — while production code names no test type.
   */
  public static final class InjectedFault extends Error {
    InjectedFault(Phase phase) {
      super("injected fault at " + phase);
    }
  }

  /**
   * A failure the process survives (an I/O error, a lost executor, a full disk). An exception on
   * purpose: the load's own failure handling must see it and record what it records.
   */
  public static final class InjectedFailure extends RuntimeException {
    InjectedFailure(Phase phase) {
      super("injected failure at " + phase);
    }
  }

  private LoadFaults() {}

  /** Arms {@code phase} for the loads the calling thread starts (replacing what was armed). */
  public static void arm(Phase phase) {
    FaultPoints.install(new Armed(phase));
  }

  /** Removes this thread's fault, fired or not. */
  public static void disarm() {
    FaultPoints.install(FaultPoints.NONE);
  }

  /** Whether this thread's fault is still armed (it has not fired yet). */
  public static boolean armed() {
    return FaultPoints.installed() instanceof Armed armed && armed.phase.get() != null;
  }

  /** One armed phase as the engine's hook: its point fires once. */
  private static final class Armed implements FaultPoints {
    private final AtomicReference<Phase> phase;

    Armed(Phase phase) {
      this.phase = new AtomicReference<>(phase);
    }

    @Override
    public void afterDiff() {
      stop(Phase.AFTER_DIFF);
    }

    @Override
    public Dataset<Row> duringWrite(Dataset<Row> rows) {
      return inTasks(Phase.DURING_WRITE, rows);
    }

    @Override
    public void afterCommit() {
      stop(Phase.AFTER_COMMIT);
    }

    @Override
    public void duringHistory() {
      if (phase.compareAndSet(Phase.DURING_HISTORY, null)) {
        throw new InjectedFailure(Phase.DURING_HISTORY);
      }
    }

    @Override
    public void afterHistory() {
      stop(Phase.AFTER_HISTORY);
    }

    @Override
    public void beforePublish() {
      stop(Phase.BEFORE_PUBLISH);
    }

    @Override
    public void afterPublish() {
      stop(Phase.AFTER_PUBLISH);
    }

    /** A stop point: throws {@link InjectedFault} when {@code at} is armed. */
    private void stop(Phase at) {
      if (phase.compareAndSet(at, null)) {
        throw new InjectedFault(at);
      }
    }

    /**
     * The rows a write job reads; when {@code at} is armed, every task reading them throws inside
     * the job (a real Spark task failure, not a driver-side exception). Unarmed: the same rows.
     */
    private Dataset<Row> inTasks(Phase at, Dataset<Row> rows) {
      if (!phase.compareAndSet(at, null)) {
        return rows;
      }
      // spark_partition_id() is evaluated per task, so the error cannot be folded on the driver.
      return rows.filter(
          when(spark_partition_id().geq(lit(0)), raise_error(lit("injected failure at " + at)))
              .otherwise(lit(true))
              .cast("boolean"));
    }
  }
}
