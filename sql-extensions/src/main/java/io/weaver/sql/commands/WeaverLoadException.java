package io.weaver.sql.commands;

import io.weaver.load.LoadResult;

/**
 * A load started by a DataFrame write or {@code INSERT} that did not succeed ({@code failed},
 * {@code refused} or {@code skipped}): the write fails with the load's message. The load's history
 * row is written all the same.
 */
public final class WeaverLoadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient LoadResult result;

  public WeaverLoadException(LoadResult result) {
    super(
        "Weaver load "
            + result.loadId()
            + " of "
            + result.tableId()
            + " "
            + result.status()
            + ": "
            + result.message()
            + " (nothing was written; the history row is in SHOW WEAVER LOADS FOR "
            + result.tableId()
            + ")");
    this.result = result;
  }

  /** The load's result row. */
  public LoadResult result() {
    return result;
  }
}
