package io.weaver.catalyst.compat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.List;
import java.util.Map;
import org.apache.spark.ErrorClassesJsonReader;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads {@value #RESOURCE} with Spark's own reader of {@code error-conditions.json}, so Weaver's
 * classes have Spark's format: {@code message} (lines of a template with {@code <param>}s) and
 * {@code sqlState}; and {@value #PARAMETERS}, the message parameters each class declares. The
 * declarations are a file of their own because Spark's reader refuses fields it does not know.
 */
public final class WeaverErrorClasses {
  /** Where the classes are, on the class path. */
  public static final String RESOURCE = "error/weaver-error-classes.json";

  /** The message parameters of each class, on the class path: {@code {"CLASS": ["message", …]}}. */
  public static final String PARAMETERS = "error/weaver-error-parameters.json";

  private static volatile ErrorClassesJsonReader reader;
  private static volatile Map<String, List<String>> parameters;

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

  /** The message parameters {@code errorClass} declares, {@code message} first. */
  static List<String> parameterNames(String errorClass) {
    Map<String, List<String>> p = parameters;
    if (p == null) {
      try (InputStream in =
          WeaverErrorClasses.class.getClassLoader().getResourceAsStream(PARAMETERS)) {
        if (in == null) {
          throw new IllegalStateException(PARAMETERS + " is not on the class path");
        }
        p =
            Map.copyOf(
                new ObjectMapper()
                    .readValue(in, new TypeReference<Map<String, List<String>>>() {}));
      } catch (IOException e) {
        throw new UncheckedIOException(PARAMETERS, e);
      }
      parameters = p;
    }
    List<String> names = p.get(errorClass);
    if (names == null) {
      throw new IllegalStateException(PARAMETERS + " declares nothing for " + errorClass);
    }
    return names;
  }
}
