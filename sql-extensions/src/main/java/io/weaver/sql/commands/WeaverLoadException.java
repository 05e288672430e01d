package io.weaver.sql.commands;

import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.catalyst.compat.WeaverThrowable;
import io.weaver.load.records.LoadResult;
import java.util.Map;

/**
 * A load started by a DataFrame write or {@code INSERT} that did not succeed ({@code failed},
 * {@code refused} or {@code skipped}): the write fails with the load's message. The load's history
 * row is written all the same. Its error class says how the load ended: {@code WEAVER_LOAD_REFUSED}
 * (a stability gate), {@code WEAVER_LOAD_SKIPPED} or {@code WEAVER_LOAD_FAILED}.
 */
public final class WeaverLoadException extends RuntimeException implements WeaverThrowable {
  private static final long serialVersionUID = 1L;

  private final transient LoadResult result;
  private final WeaverErrorClass errorClass;

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
    this.errorClass = result.status().errorClass().orElse(WeaverErrorClass.WEAVER_LOAD_FAILED);
  }

  @Override
  public WeaverErrorClass errorClass() {
    return errorClass;
  }

  /** The load's Table, id and status. */
  @Override
  public Map<ErrorParameter, String> facts() {
    return result.errorFacts();
  }

  /** The load's result row. */
  public LoadResult result() {
    return result;
  }
}
