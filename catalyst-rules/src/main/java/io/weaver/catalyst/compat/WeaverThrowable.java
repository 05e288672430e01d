package io.weaver.catalyst.compat;

import java.util.Map;
import org.apache.spark.SparkThrowable;

/**
 * An exception of Weaver's own with an error class: Spark, Spark Connect and PySpark read its
 * class, SQLSTATE and message parameters as they read Spark's ({@link SparkThrowable}).
 */
public interface WeaverThrowable extends SparkThrowable {
  /** The error class. */
  WeaverErrorClass errorClass();

  /** The message, as {@link Throwable#getMessage()}. */
  String getMessage();

  @Override
  default String getCondition() {
    return errorClass().name();
  }

  @Override
  default String getSqlState() {
    return errorClass().sqlState();
  }

  /** The facts this error is about, beside its message (none unless the error names them). */
  default Map<ErrorParameter, String> facts() {
    return Map.of();
  }

  /** {@code message} and the {@link #facts()}, by the names its class declares. */
  @Override
  default Map<String, String> getMessageParameters() {
    return errorClass().parameters(getMessage(), facts());
  }
}
