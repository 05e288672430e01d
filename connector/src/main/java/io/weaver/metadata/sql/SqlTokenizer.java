package io.weaver.metadata.sql;

import java.util.List;

/**
 * Splits SQL text into tokens with file positions.
 *
 * <p>Spark SQL: {@code '…'} and {@code "…"} are string literals with backslash escapes, {@code
 * r'…'}/{@code R"…"} raw strings, {@code `…`} quoted identifiers ({@code ``} escapes a backtick).
 * T-SQL: {@code '…'} and {@code N'…'} strings ({@code ''} escapes a quote), {@code […]} ({@code
 * ]]}) and {@code "…"} ({@code ""}) quoted identifiers, {@code @x}/{@code @@x} variables, {@code
 * #t}/{@code ##t} words. In both, {@code --} line comments and nested {@code /* *}{@code /} block
 * comments are dropped, as is whitespace.
 */
public final class SqlTokenizer {
  private SqlTokenizer() {}

  /**
   * Tokenizes {@code text}, whose first character sits at {@code firstLine}/{@code firstColumn} of
   * its file.
   *
   * @throws SqlSyntaxException for an unterminated string, quoted identifier or block comment
   */
  public static List<SqlToken> tokenize(
      String text, SqlDialect dialect, int firstLine, int firstColumn) {
    SqlLexer lexer = new SqlLexer(text, dialect, firstLine, firstColumn);
    lexer.run();
    return List.copyOf(lexer.tokens());
  }
}
