package io.weaver.catalyst.compat;

import java.util.Map;
import org.apache.spark.sql.AnalysisException;
import scala.jdk.javaapi.CollectionConverters;

/** Builds the Spark exceptions Weaver's rules throw, so users see Spark's usual format. */
public final class SparkErrors {
  private SparkErrors() {}

  /**
   * Throws an {@link AnalysisException} of Weaver's class {@code errorClass} whose message is
   * exactly {@code message} (today's wording, no prefix): {@code getCondition()} is the class,
   * {@code getSqlState()} its SQLSTATE from {@code error/weaver-error-classes.json}. Spark's
   * exceptions are checked in Java's eyes but not in Scala's, and Spark callers expect them
   * unchecked, so they are thrown without a {@code throws} clause; the return type only lets
   * callers write {@code throw SparkErrors.analysis(...)}.
   */
  public static RuntimeException analysis(WeaverErrorClass errorClass, String message) {
    throw analysis(errorClass, message, Map.of());
  }

  /**
   * {@link #analysis(WeaverErrorClass, String)} with the facts the error is about as further
   * message parameters ({@code getMessageParameters()}); the message stays {@code message}.
   */
  public static RuntimeException analysis(
      WeaverErrorClass errorClass, String message, Map<ErrorParameter, String> facts) {
    throw sneaky(
        SparkLine.analysisException(
            message,
            errorClass.name(),
            scala.collection.immutable.Map.from(
                CollectionConverters.asScala(errorClass.parameters(message, facts))),
            errorClass.sqlState(),
            WeaverErrorClasses.reader().getMessageTemplate(errorClass.name())));
  }

  /** Throws {@code t} unchecked; see {@link #analysis}. */
  @SuppressWarnings("unchecked")
  public static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }
}
