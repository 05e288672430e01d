package io.weaver.load.publish;

/**
 * The fault points around an item's publish, as {@link ItemPublisher} sees them: the engine's
 * {@code io.weaver.load.FaultPoints} extends it.
 */
public interface PublishFaultPoints {
  /**
   * Stop point: every Table of an item's load committed; the item's publish has not (a reader by
   * name still sees the last publish).
   */
  default void beforePublish() {}

  /** Stop point: the item's publish committed; nothing after it has run. */
  default void afterPublish() {}
}
