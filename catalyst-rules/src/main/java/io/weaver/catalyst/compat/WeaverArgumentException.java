package io.weaver.catalyst.compat;

/**
 * A request the engine refuses (an unknown Table, a Table not built, …) with its error class. It is
 * an {@link IllegalArgumentException}, as the engine's argument errors have always been, so callers
 * that catch those keep working.
 */
public final class WeaverArgumentException extends IllegalArgumentException
    implements WeaverThrowable {
  private static final long serialVersionUID = 1L;

  private final WeaverErrorClass errorClass;

  public WeaverArgumentException(WeaverErrorClass errorClass, String message) {
    super(message);
    this.errorClass = errorClass;
  }

  @Override
  public WeaverErrorClass errorClass() {
    return errorClass;
  }

  /** The class of an engine error: its own when it has one of Weaver's, else {@code otherwise}. */
  public static WeaverErrorClass classOf(Throwable error, WeaverErrorClass otherwise) {
    return error instanceof WeaverThrowable w ? w.errorClass() : otherwise;
  }
}
