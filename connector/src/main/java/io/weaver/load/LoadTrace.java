package io.weaver.load;

/**
 * Driver-side timing marks of a load, printed to stderr when the JVM runs with {@code
 * -Dweaver.trace=true} (used to find where a load's fixed cost goes; see docs/performance.md).
 */
final class LoadTrace {
  private static final boolean ON = Boolean.getBoolean("weaver.trace");
  private static final ThreadLocal<Long> START = new ThreadLocal<>();

  private LoadTrace() {}

  static void start() {
    if (ON) {
      START.set(System.nanoTime());
      System.err.println("[trace] +0 ms load start");
    }
  }

  static void mark(String what) {
    if (ON) {
      Long s = START.get();
      long ms = s == null ? -1 : (System.nanoTime() - s) / 1_000_000;
      System.err.println(
          "[trace] +" + ms + " ms " + what + " [" + Thread.currentThread().getName() + "]");
    }
  }
}
