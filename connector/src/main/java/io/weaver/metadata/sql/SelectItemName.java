package io.weaver.metadata.sql;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the token that names one select item's output column, if the text shows it: {@code expr AS
 * name}, {@code expr name}, T-SQL {@code name = expr}, or a bare column reference {@code a}, {@code
 * t.a}. Everything else — wildcards, unaliased expressions and literals — has a name only the
 * engine knows, so it yields nothing.
 */
final class SelectItemName {
  /** Words that end an expression and therefore can never be an alias or a column reference. */
  private static final Set<String> NOT_NAMES =
      Set.of(
          "END",
          "NULL",
          "TRUE",
          "FALSE",
          "AND",
          "OR",
          "NOT",
          "IS",
          "IN",
          "LIKE",
          "RLIKE",
          "ILIKE",
          "REGEXP",
          "BETWEEN",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "AS",
          "DISTINCT",
          "ALL",
          "INTERVAL",
          "CURRENT_DATE",
          "CURRENT_TIMESTAMP",
          "CURRENT_USER",
          "CURRENT_TIME",
          "SESSION_USER",
          "USER",
          "SYSTEM_USER",
          "LOCALTIMESTAMP",
          "ESCAPE",
          "COLLATE",
          "DIV");

  /** Words after which the next word continues the expression instead of aliasing it. */
  private static final Set<String> OPERAND_TAKERS =
      Set.of(
          "AND",
          "OR",
          "NOT",
          "IS",
          "IN",
          "LIKE",
          "RLIKE",
          "ILIKE",
          "REGEXP",
          "BETWEEN",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "AS",
          "DISTINCT",
          "ALL",
          "INTERVAL",
          "ESCAPE",
          "COLLATE",
          "DIV",
          "SELECT",
          "TOP");

  private SelectItemName() {}

  static Optional<SqlToken> of(List<SqlToken> item, SqlDialect dialect) {
    int n = item.size();
    if (n == 0 || hasWildcard(item)) {
      return Optional.empty();
    }
    if (dialect == SqlDialect.TSQL && n >= 3 && item.get(1).isSymbol("=") && isName(item.get(0))) {
      return Optional.of(item.get(0));
    }
    SqlToken last = item.get(n - 1);
    boolean stringAlias = dialect == SqlDialect.TSQL && last.kind() == SqlToken.Kind.STRING;
    if (n >= 3 && item.get(n - 2).isWord("AS") && (isName(last) || stringAlias)) {
      return Optional.of(last);
    }
    if (isColumnReference(item)) {
      return Optional.of(last);
    }
    if (n >= 2 && isName(last) && continuesToAlias(item.get(n - 2)) && !hasWord(item, "INTERVAL")) {
      return Optional.of(last);
    }
    return Optional.empty();
  }

  /** The column name a naming token spells: unquoted, escapes undone. */
  static String value(SqlToken token) {
    if (token.kind() == SqlToken.Kind.STRING) {
      String text = token.text();
      return text.substring(1, text.length() - 1).replace("''", "'");
    }
    return token.identifierValue();
  }

  /** {@code a}, {@code t.a}, {@code s.t.a}: identifiers joined by dots, nothing else. */
  private static boolean isColumnReference(List<SqlToken> item) {
    if (item.size() % 2 == 0) {
      return false;
    }
    for (int i = 0; i < item.size(); i++) {
      boolean ok = i % 2 == 0 ? isName(item.get(i)) : item.get(i).isSymbol(".");
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Whether an identifier right after {@code previous} is an alias rather than an operand. */
  private static boolean continuesToAlias(SqlToken previous) {
    switch (previous.kind()) {
      case SYMBOL:
        // After a call or a subscript (`m['k'] v`); after an operator the word is an operand.
        return previous.isSymbol(")") || previous.isSymbol("]");
      case WORD:
        return !TokenScan.isWordIn(previous, OPERAND_TAKERS);
      case SEMICOLON:
        return false;
      default:
        return true;
    }
  }

  private static boolean hasWildcard(List<SqlToken> item) {
    int depth = 0;
    for (int i = 0; i < item.size(); i++) {
      SqlToken token = item.get(i);
      if (token.isSymbol("(")) {
        depth++;
      } else if (token.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && token.isSymbol("*") && (i == 0 || item.get(i - 1).isSymbol("."))) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasWord(List<SqlToken> item, String word) {
    return item.stream().anyMatch(t -> t.isWord(word));
  }

  private static boolean isName(SqlToken token) {
    return token.kind() == SqlToken.Kind.QUOTED_IDENTIFIER
        || (token.kind() == SqlToken.Kind.WORD && !TokenScan.isWordIn(token, NOT_NAMES));
  }
}
