package io.weaver.load;

import io.weaver.load.publish.PublishFaultPoints;
import io.weaver.load.records.HistoryFaultPoints;
import io.weaver.load.write.WriteFaultPoints;

/**
 * The places a load can be stopped or made to fail, as a hook the engine is given. Loads run with
 * {@link #NONE}, whose points do nothing. Tests (and nobody else) install other points on their own
 * thread ({@link #install}); {@link LoadRunner} and {@link LoadEngine} pick up the points installed
 * on the thread that starts a load, so a test's fault never reaches a load another thread runs, and
 * no check of a test setting sits inside the engine's steps.
 *
 * <p>This interface is all production code knows of fault injection: it names no fault type, so no
 * production {@code catch} can single one out. What a point throws is the installer's choice
 * (docs/architecture.md, "Fault points").
 */
public interface FaultPoints extends WriteFaultPoints, HistoryFaultPoints, PublishFaultPoints {
  /** Nothing stops, nothing fails. */
  FaultPoints NONE = new FaultPoints() {};

  /** Stop point: the change set and counts are computed; gates and write have not run. */
  default void afterDiff() {}

  /** Stop point: the Delta commit landed; history and state are not written. */
  default void afterCommit() {}

  /** The fault points installed on this thread: {@link #NONE} unless a test installed others. */
  static FaultPoints installed() {
    return InstalledFaultPoints.current();
  }

  /**
   * Installs {@code points} for the loads this thread starts from now on ({@link #NONE} removes
   * them). Only tests call this.
   */
  static void install(FaultPoints points) {
    InstalledFaultPoints.set(points);
  }
}
