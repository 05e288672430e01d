package io.weaver.sql.compat;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.apache.spark.sql.catalyst.parser.ParseException;
import scala.collection.immutable.Map;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Builds the syntax errors Weaver's parser throws, in Spark's usual format (analysis errors are
 * {@link io.weaver.catalyst.compat.SparkErrors}).
 */
public final class ParseErrors {
  private ParseErrors() {}

  /**
   * Throws a Spark {@code PARSE_SYNTAX_ERROR} positioned at {@code token}: its message reads {@code
   * Syntax error at or near <near><hint>.} followed by the line, position and the statement with a
   * caret under the position. The statement text is taken from the token's input stream.
   */
  public static RuntimeException syntaxError(Token token, String near, String hint) {
    ParserRuleContext at = new ParserRuleContext();
    at.start = token;
    at.stop = token;
    throw io.weaver.catalyst.compat.SparkErrors.sneaky(
        new ParseException(
            "PARSE_SYNTAX_ERROR", scalaMap(java.util.Map.of("error", near, "hint", hint)), at));
  }

  private static Map<String, String> scalaMap(java.util.Map<String, String> map) {
    return scala.collection.immutable.Map.from(CollectionConverters.asScala(map));
  }
}
