package io.weaver.catalyst.compat;

import java.util.Map;

/**
 * A request the engine refuses (an unknown Table, a Table not built, …) with its error class. It is
 * an {@link IllegalArgumentException}, as the engine's argument errors have always been, so callers
 * that catch those keep working.
 */
public final class WeaverArgumentException extends IllegalArgumentException
    implements WeaverThrowable {
  private static final long serialVersionUID = 1L;

  private final WeaverErrorClass errorClass;
  private final Map<ErrorParameter, String> facts;

  public WeaverArgumentException(WeaverErrorClass errorClass, String message) {
    this(errorClass, message, Map.of());
  }

  /** An error of {@code errorClass} about {@code facts} (its further message parameters). */
  public WeaverArgumentException(
      WeaverErrorClass errorClass, String message, Map<ErrorParameter, String> facts) {
    this(errorClass, message, facts, null);
  }

  /** An error of {@code errorClass} about {@code facts}, caused by {@code cause}. */
  public WeaverArgumentException(
      WeaverErrorClass errorClass,
      String message,
      Map<ErrorParameter, String> facts,
      Throwable cause) {
    super(message, cause);
    this.errorClass = errorClass;
    this.facts = Map.copyOf(facts);
  }

  @Override
  public Map<ErrorParameter, String> facts() {
    return facts;
  }

  @Override
  public WeaverErrorClass errorClass() {
    return errorClass;
  }
}
