package io.weaver.catalyst.compat;

import java.net.URL;
import java.util.List;
import java.util.Map;
import org.apache.spark.ErrorClassesJsonReader;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads {@value #RESOURCE} with Spark's own reader of {@code error-conditions.json}, so Weaver's
 * classes have Spark's format: {@code message} (lines of a template with {@code <param>}s) and
 * {@code sqlState}.
 */
public final class WeaverErrorClasses {
  /** Where the classes are, on the class path. */
  public static final String RESOURCE = "error/weaver-error-classes.json";

  private static volatile ErrorClassesJsonReader reader;

  private WeaverErrorClasses() {}

  /** The reader over Weaver's classes (read once). */
  public static ErrorClassesJsonReader reader() {
    ErrorClassesJsonReader r = reader;
    if (r == null) {
      URL url = WeaverErrorClasses.class.getClassLoader().getResource(RESOURCE);
      if (url == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      r = new ErrorClassesJsonReader(CollectionConverters.asScala(List.of(url)).toSeq());
      reader = r;
    }
    return r;
  }

  /** The message of {@code errorClass} with {@code parameters} substituted into its template. */
  static String message(String errorClass, Map<String, String> parameters) {
    Map<String, Object> values = Map.copyOf(parameters);
    return reader()
        .getErrorMessage(
            errorClass, scala.collection.immutable.Map.from(CollectionConverters.asScala(values)));
  }
}
