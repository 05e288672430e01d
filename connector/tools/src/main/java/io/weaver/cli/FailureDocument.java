package io.weaver.cli;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.load.records.LoadResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkThrowable;

/**
 * The fields of a failure in {@code --format json} output: {@code errorClass}, {@code sqlState},
 * {@code parameters} and {@code message} (docs/errors.md, "CLI"), so a client reads the class and
 * the facts by name from the one document on stdout instead of parsing stderr.
 */
final class FailureDocument {
  private FailureDocument() {}

  /** The fields of an error of {@code errorClass} with {@code parameters} (message included). */
  static Map<String, Object> of(
      String errorClass, String sqlState, Map<String, String> parameters, String message) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("errorClass", errorClass);
    doc.put("sqlState", sqlState);
    doc.put("parameters", parameters);
    doc.put("message", message);
    return doc;
  }

  /** The fields of an error of one of Weaver's classes. */
  static Map<String, Object> of(
      WeaverErrorClass errorClass, String message, Map<ErrorParameter, String> facts) {
    return of(
        errorClass.name(), errorClass.sqlState(), errorClass.parameters(message, facts), message);
  }

  /** A command line that cannot be run as given. */
  static Map<String, Object> of(UsageException e) {
    return of(e.errorClass(), e.getMessage(), e.facts());
  }

  /**
   * An exception that ended the command: a {@link SparkThrowable} keeps its own class (Weaver's or
   * Spark's or Delta's); any other is {@code WEAVER_INTERNAL_ERROR} naming its Java class.
   */
  static Map<String, Object> of(RuntimeException e) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    if (e instanceof SparkThrowable t && t.getCondition() != null) {
      Map<String, String> parameters = new LinkedHashMap<>(t.getMessageParameters());
      parameters.putIfAbsent("message", message);
      return of(t.getCondition(), t.getSqlState(), parameters, message);
    }
    return of(
        WeaverErrorClass.WEAVER_INTERNAL_ERROR,
        message,
        ErrorFacts.of(ErrorParameter.EXCEPTION, e.getClass().getName()));
  }

  /** The error fields of a load that did not succeed (its row's message and facts). */
  static Optional<Map<String, Object>> of(LoadResult r) {
    return r.status()
        .errorClass()
        .map(c -> of(c, r.message() == null ? "" : r.message(), r.errorFacts()));
  }
}
