package io.weaver.sql;

import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.catalyst.compat.WeaverThrowable;

/**
 * The Weaver jar was built for another Spark minor than the one running ({@link SparkLine}).
 *
 * <p>An {@link IllegalStateException}, not a linkage error: Spark logs and ignores a {@code
 * ClassCastException}, {@code ClassNotFoundException} or {@code NoClassDefFoundError} thrown by a
 * session extension, and lets any other exception out of {@code SparkSession.Builder.getOrCreate},
 * so the user sees this message when the session starts.
 */
public final class WeaverSparkLineException extends IllegalStateException
    implements WeaverThrowable {
  private static final long serialVersionUID = 1L;

  public WeaverSparkLineException(String message) {
    super(message);
  }

  @Override
  public WeaverErrorClass errorClass() {
    return WeaverErrorClass.WEAVER_SPARK_LINE_MISMATCH;
  }
}
