package io.weaver.load.records;

/**
 * The fault points around a load's history row, as {@link LoadRecorder} sees them: the engine's
 * {@code io.weaver.load.FaultPoints} extends it.
 */
public interface HistoryFaultPoints {
  /** Failure point on the driver: the load's history row is about to be written. */
  default void duringHistory() {}

  /** Stop point: history is written; state is not. */
  default void afterHistory() {}
}
