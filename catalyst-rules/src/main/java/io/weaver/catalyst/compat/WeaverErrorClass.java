package io.weaver.catalyst.compat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The error classes of Weaver's errors, as Spark keeps its own: each name is a key of {@code
 * error/weaver-error-classes.json} (one-to-one, checked by {@code WeaverErrorClassTest}), which
 * holds its message template and SQLSTATE, and of {@code error/weaver-error-parameters.json}, which
 * declares its message parameters. What each means is in docs/errors.md.
 *
 * <p>Every template is {@code <message>}: the messages are composed where the error is met (what
 * happened, why, what to do), and the class names the kind of error for code that must recognise it
 * (the Python package, the CLI's JSON, a client of Spark Connect). The facts an error is about (its
 * Table, column, file, …) are further named parameters beside {@code message}.
 */
public enum WeaverErrorClass {
  WEAVER_CATALOG_HOLDS_NO_TABLES,
  WEAVER_CHECK_FAILED,
  WEAVER_DML_MANAGED_COLUMNS,
  WEAVER_DML_WITHOUT_WHERE,
  WEAVER_INTERNAL_ERROR,
  WEAVER_INVALID_REQUEST,
  WEAVER_INVALID_SETTING,
  WEAVER_INVALID_SETTINGS_FILE,
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

  /** The names of the message parameters an error of this class carries, {@code message} first. */
  public List<String> parameterNames() {
    return WeaverErrorClasses.parameterNames(name());
  }

  /** The message parameters of an error of this class whose text is {@code message}. */
  public Map<String, String> parameters(String message) {
    return parameters(message, Map.of());
  }

  /**
   * The message parameters of an error of this class: {@code message} (the whole text, which the
   * template {@code <message>} renders unchanged) and the facts, in declaration order.
   */
  public Map<String, String> parameters(String message, Map<ErrorParameter, String> facts) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put(ErrorParameter.MESSAGE.key(), Objects.requireNonNullElse(message, ""));
    for (String name : parameterNames()) {
      facts.entrySet().stream()
          .filter(f -> f.getKey().key().equals(name))
          .findFirst()
          .ifPresent(f -> parameters.put(name, Objects.requireNonNullElse(f.getValue(), "")));
    }
    return java.util.Collections.unmodifiableMap(parameters);
  }
}
