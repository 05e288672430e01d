package io.weaver.sql.compat;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.apache.spark.QueryContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.catalyst.parser.ParseException;
import scala.Option;
import scala.collection.immutable.Map;
import scala.jdk.javaapi.CollectionConverters;

/** Builds the Spark exceptions Weaver's statements throw, so users see Spark's usual format. */
public final class SparkErrors {
  private SparkErrors() {}

  /**
   * Throws an {@link AnalysisException} carrying exactly {@code message} (no error class). Spark's
   * exceptions are checked in Java's eyes but not in Scala's, and Spark callers expect them
   * unchecked, so they are thrown without a {@code throws} clause; the return type only lets
   * callers write {@code throw SparkErrors.analysis(...)}.
   */
  public static RuntimeException analysis(String message) {
    throw sneaky(
        new AnalysisException(
            message,
            Option.empty(),
            Option.empty(),
            Option.empty(),
            Option.empty(),
            scalaMap(java.util.Map.of()),
            new QueryContext[0]));
  }

  /**
   * Throws a Spark {@code PARSE_SYNTAX_ERROR} positioned at {@code token}: its message reads {@code
   * Syntax error at or near <near><hint>.} followed by the line, position and the statement with a
   * caret under the position. The statement text is taken from the token's input stream.
   */
  public static RuntimeException syntaxError(Token token, String near, String hint) {
    ParserRuleContext at = new ParserRuleContext();
    at.start = token;
    at.stop = token;
    throw sneaky(
        new ParseException(
            "PARSE_SYNTAX_ERROR", scalaMap(java.util.Map.of("error", near, "hint", hint)), at));
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
    throw (T) t;
  }

  private static Map<String, String> scalaMap(java.util.Map<String, String> map) {
    return scala.collection.immutable.Map.from(CollectionConverters.asScala(map));
  }
}
