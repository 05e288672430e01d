package io.weaver.cli;

import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverErrorClass;
import java.util.Map;

/**
 * A command line that cannot be run as given (exit code 2). Its error class, for {@code --format
 * json}, is {@code WEAVER_INVALID_REQUEST} unless the thrower names a closer one.
 */
final class UsageException extends RuntimeException {
  private final WeaverErrorClass errorClass;
  private final transient Map<ErrorParameter, String> facts;

  UsageException(String message) {
    this(message, WeaverErrorClass.WEAVER_INVALID_REQUEST, Map.of());
  }

  UsageException(String message, WeaverErrorClass errorClass, Map<ErrorParameter, String> facts) {
    super(message);
    this.errorClass = errorClass;
    this.facts = facts;
  }

  WeaverErrorClass errorClass() {
    return errorClass;
  }

  Map<ErrorParameter, String> facts() {
    return facts;
  }
}
