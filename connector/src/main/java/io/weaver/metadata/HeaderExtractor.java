package io.weaver.metadata;

import io.weaver.findings.RuleIds;
import io.weaver.findings.SourcePos;

/**
 * Finds a declaration's header: a Python module docstring (the first statement, a triple-quoted
 * string), or a SQL block comment that is the first non-blank text. Block comments nest, as they do
 * in both Spark SQL and T-SQL, so a header may mention {@code /* … *}{@code /} safely. The
 * docstring's text is taken as written (escape sequences are not interpreted), which is what YAML
 * wants.
 */
public final class HeaderExtractor {

  private HeaderExtractor() {}

  /** A header, or why there is none. Exactly one side is non-null. */
  public record Result(Header header, HeaderError error) {}

  /** Extracts the module docstring of a Python file. */
  public static Result python(String text) {
    int i = skipPythonPreamble(text);
    if (i + 1 < text.length()
        && "rRuU".indexOf(text.charAt(i)) >= 0
        && (text.charAt(i + 1) == '"' || text.charAt(i + 1) == '\'')) {
      i++;
    }
    String quote = null;
    if (text.startsWith("\"\"\"", i)) {
      quote = "\"\"\"";
    } else if (text.startsWith("'''", i)) {
      quote = "'''";
    }
    if (quote == null) {
      return missing(
          text,
          i,
          "no header: the file must start with a triple-quoted docstring holding the YAML"
              + " metadata (\"\"\" Table ID: Schema.Object … \"\"\")");
    }
    int yamlStart = i + 3;
    int end = findClosingQuote(text, yamlStart, quote);
    if (end < 0) {
      return new Result(
          null,
          new HeaderError(
              RuleIds.HEADER_INVALID,
              position(text, i),
              "the docstring that opens here is never closed; end it with " + quote));
    }
    return new Result(
        new Header(
            text.substring(yamlStart, end),
            position(text, yamlStart),
            end + 3,
            position(text, end + 3)),
        null);
  }

  /** Extracts the leading block comment of a Spark SQL or T-SQL file. */
  public static Result sqlBlock(String text) {
    int i = skipWhitespace(text, 0);
    if (!text.startsWith("/*", i)) {
      return missing(
          text,
          i,
          "no header: the file must start with a /* … */ block comment holding the YAML"
              + " metadata (Table ID, Description, …)");
    }
    int depth = 0;
    int j = i;
    while (j < text.length()) {
      if (text.startsWith("/*", j)) {
        depth++;
        j += 2;
      } else if (text.startsWith("*/", j)) {
        depth--;
        j += 2;
        if (depth == 0) {
          return new Result(
              new Header(text.substring(i + 2, j - 2), position(text, i + 2), j, position(text, j)),
              null);
        }
      } else {
        j++;
      }
    }
    return new Result(
        null,
        new HeaderError(
            RuleIds.HEADER_INVALID,
            position(text, i),
            "the header comment that opens here is never closed; end it with */"));
  }

  private static Result missing(String text, int at, String message) {
    return new Result(null, new HeaderError(RuleIds.HEADER_MISSING, position(text, at), message));
  }

  /** Skips blank lines, {@code #} comments (shebang, encoding) before the docstring. */
  private static int skipPythonPreamble(String text) {
    int i = 0;
    if (text.startsWith("\uFEFF")) {
      i = 1;
    }
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '#') {
        while (i < text.length() && text.charAt(i) != '\n') {
          i++;
        }
      } else {
        break;
      }
    }
    return i;
  }

  private static int skipWhitespace(String text, int from) {
    int i = from;
    if (i == 0 && text.startsWith("\uFEFF")) {
      i = 1;
    }
    while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private static int findClosingQuote(String text, int from, String quote) {
    int i = from;
    while (i < text.length()) {
      if (text.charAt(i) == '\\') {
        i += 2;
      } else if (text.startsWith(quote, i)) {
        return i;
      } else {
        i++;
      }
    }
    return -1;
  }

  /** The 1-based line and column of a character offset. */
  public static SourcePos position(String text, int offset) {
    int line = 1;
    int column = 1;
    int limit = Math.min(offset, text.length());
    for (int k = 0; k < limit; k++) {
      if (text.charAt(k) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new SourcePos(line, column);
  }
}
