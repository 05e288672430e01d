package io.weaver.load;

/**
 * The {@link FaultPoints} of each thread. Per thread, not global: loads that run concurrently (two
 * sessions in one JVM, a test suite run in parallel) never see a fault armed for another load.
 */
final class InstalledFaultPoints {
  private static final ThreadLocal<FaultPoints> CURRENT = new ThreadLocal<>();

  private InstalledFaultPoints() {}

  static FaultPoints current() {
    FaultPoints points = CURRENT.get();
    return points == null ? FaultPoints.NONE : points;
  }

  static void set(FaultPoints points) {
    if (points == null || points == FaultPoints.NONE) {
      CURRENT.remove();
    } else {
      CURRENT.set(points);
    }
  }
}
