package io.weaver.metadata.sql;

import java.util.List;
import java.util.Set;

/**
 * Small structural moves over a token list shared by the splitters, the column reader, the T-SQL
 * rule reader and the Warehouse staging statements.
 */
public final class TokenScan {
  static final Set<String> QUERY_STARTS = Set.of("SELECT", "WITH", "VALUES", "TABLE", "FROM");

  private TokenScan() {}

  /** Index of the {@code )} matching the {@code (} at {@code open}, or the list size if none. */
  public static int closingParen(List<SqlToken> tokens, int open) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      SqlToken token = tokens.get(i);
      if (token.isSymbol("(")) {
        depth++;
      } else if (token.isSymbol(")")) {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return tokens.size();
  }

  /**
   * Index of the main statement after the {@code WITH} clause that starts at {@code with}, or -1
   * when the clause is not a well-formed common table expression list. Accepts {@code name [(
   * columns )] [AS] ( query )} repeated with commas; {@code AS} is optional because Spark's grammar
   * makes it so.
   */
  static int afterWithClause(List<SqlToken> tokens, int with) {
    int i = with + 1;
    if (i < tokens.size() && tokens.get(i).isWord("RECURSIVE")) {
      i++;
    }
    while (true) {
      if (i >= tokens.size() || !tokens.get(i).isIdentifier()) {
        return -1;
      }
      i++;
      if (isSymbol(tokens, i, "(") && !opensQuery(tokens, i)) {
        i = closingParen(tokens, i) + 1;
      }
      if (i < tokens.size() && tokens.get(i).isWord("AS")) {
        i++;
      }
      if (!isSymbol(tokens, i, "(")) {
        return -1;
      }
      i = closingParen(tokens, i) + 1;
      if (!isSymbol(tokens, i, ",")) {
        return i < tokens.size() ? i : -1;
      }
      i++;
    }
  }

  /** Whether the {@code (} at {@code open} starts a query rather than a column list. */
  static boolean opensQuery(List<SqlToken> tokens, int open) {
    int i = open;
    while (isSymbol(tokens, i, "(")) {
      i++;
    }
    return i < tokens.size() && isWordIn(tokens.get(i), QUERY_STARTS);
  }

  static boolean isSymbol(List<SqlToken> tokens, int i, String symbol) {
    return i >= 0 && i < tokens.size() && tokens.get(i).isSymbol(symbol);
  }

  static boolean isWord(List<SqlToken> tokens, int i, String word) {
    return i >= 0 && i < tokens.size() && tokens.get(i).isWord(word);
  }

  static boolean isWordIn(SqlToken token, Set<String> upperCaseWords) {
    return token.kind() == SqlToken.Kind.WORD && upperCaseWords.contains(token.upper());
  }
}
