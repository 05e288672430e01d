package io.weaver.warehouse;

/** A Warehouse endpoint call that failed; the message names the item and what was being done. */
public final class WarehouseException extends RuntimeException {
  public WarehouseException(String message, Throwable cause) {
    super(message, cause);
  }

  public WarehouseException(String message) {
    super(message);
  }
}
