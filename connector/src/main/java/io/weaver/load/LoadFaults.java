package io.weaver.load;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Fault injection points of a load, armed by tests (and by nobody else): when the armed phase is
 * reached the load stops with {@link InjectedFault}, as if the process had died there. One shot:
 * the fault disarms itself when it fires.
 */
public final class LoadFaults {
  /** Where a load can be stopped. */
  public enum Phase {
    /** The Delta commit landed; history and state are not written. */
    AFTER_COMMIT,
    /** History is written; state is not. */
    AFTER_HISTORY
  }

  /** The stop itself. */
  public static final class InjectedFault extends RuntimeException {
    InjectedFault(Phase phase) {
      super("injected fault at " + phase);
    }
  }

  private static final AtomicReference<Phase> ARMED = new AtomicReference<>();

  private LoadFaults() {}

  public static void arm(Phase phase) {
    ARMED.set(phase);
  }

  public static void disarm() {
    ARMED.set(null);
  }

  static void reach(Phase phase) {
    if (ARMED.compareAndSet(phase, null)) {
      throw new InjectedFault(phase);
    }
  }
}
