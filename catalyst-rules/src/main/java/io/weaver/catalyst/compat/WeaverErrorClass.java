package io.weaver.catalyst.compat;

import java.util.Map;
import java.util.Objects;

/**
 * The error classes of Weaver's errors, as Spark keeps its own: each name is a key of {@code
 * error/weaver-error-classes.json} (one-to-one, checked by {@code WeaverErrorClassTest}), which
 * holds its message template and SQLSTATE. What each means is in docs/errors.md.
 *
 * <p>Every template is {@code <message>}: the messages are composed where the error is met (what
 * happened, why, what to do), and the class names the kind of error for code that must recognise it
 * (the Python package, the CLI's JSON, a client of Spark Connect).
 */
public enum WeaverErrorClass {
  WEAVER_CATALOG_HOLDS_NO_TABLES,
  WEAVER_CHECK_FAILED,
  WEAVER_DML_MANAGED_COLUMNS,
  WEAVER_DML_WITHOUT_WHERE,
  WEAVER_INVALID_REQUEST,
  WEAVER_ITEM_CATALOG_CONFLICT,
  WEAVER_ITEM_NOT_A_CATALOG,
  WEAVER_ITEM_NOT_FOUND,
  WEAVER_LOAD_CONTEXT_IN_FUTURE,
  WEAVER_LOAD_FAILED,
  WEAVER_LOAD_REFUSED,
  WEAVER_LOAD_SKIPPED,
  WEAVER_MIN_VERSION_INVALID,
  WEAVER_MIN_VERSION_NOT_VISIBLE,
  WEAVER_NOT_A_PYTHON_TABLE,
  WEAVER_NOT_A_TABLE_IDENTITY,
  WEAVER_NO_WORKSPACE,
  WEAVER_OVERWRITE_REFUSED,
  WEAVER_SOURCE_NEEDS_TABLE,
  WEAVER_SPARK_LINE_MISMATCH,
  WEAVER_TABLE_NOT_BUILT,
  WEAVER_TABLE_NOT_FOUND,
  WEAVER_VIEW_NOT_FOUND,
  WEAVER_WORKSPACE_INVALID_PATH,
  WEAVER_WORKSPACE_NOT_FOUND,
  WEAVER_WORKSPACE_NOT_LOCAL;

  /** The SQLSTATE of this class, from the JSON. */
  public String sqlState() {
    return WeaverErrorClasses.reader().getSqlState(name());
  }

  /** The message parameters of an error of this class whose text is {@code message}. */
  public Map<String, String> parameters(String message) {
    return Map.of("message", Objects.requireNonNullElse(message, ""));
  }

  /** The message of an error of this class with {@code parameters}, from the JSON's template. */
  public String message(Map<String, String> parameters) {
    return WeaverErrorClasses.message(name(), parameters);
  }
}
