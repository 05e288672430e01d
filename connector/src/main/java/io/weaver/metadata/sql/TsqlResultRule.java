package io.weaver.metadata.sql;

import java.util.List;
import java.util.Set;

/**
 * Decides whether a T-SQL statement returns rows to the caller: a {@code SELECT} (possibly
 * parenthesised or after a {@code WITH} prefix) that neither stores its rows ({@code SELECT …
 * INTO}) nor assigns variables ({@code SELECT @v = …}). Procedure calls are not counted even though
 * a procedure may return rows: their shape is not visible in the body.
 */
final class TsqlResultRule {
  private static final Set<String> INTO_SCAN_STOPS =
      Set.of("FROM", "UNION", "EXCEPT", "INTERSECT", "WHERE");

  private TsqlResultRule() {}

  static SqlStatement.Kind kindOf(List<SqlToken> tokens) {
    return returnsRows(tokens) ? SqlStatement.Kind.RESULT_QUERY : SqlStatement.Kind.NON_RESULT;
  }

  private static boolean returnsRows(List<SqlToken> tokens) {
    int i = 0;
    while (TokenScan.isSymbol(tokens, i, "(")) {
      i++;
    }
    if (TokenScan.isWord(tokens, i, "WITH")) {
      i = TokenScan.afterWithClause(tokens, i);
    }
    return TokenScan.isWord(tokens, i, "SELECT")
        && !assignsVariable(tokens, i)
        && !selectsInto(tokens, i);
  }

  /** {@code SELECT @v = …} (or {@code +=} and friends) sets variables and returns nothing. */
  private static boolean assignsVariable(List<SqlToken> tokens, int select) {
    int i = SelectPrefix.skip(tokens, select + 1);
    if (i + 1 >= tokens.size() || tokens.get(i).kind() != SqlToken.Kind.VARIABLE) {
      return false;
    }
    SqlToken operator = tokens.get(i + 1);
    String text = operator.text();
    return operator.kind() == SqlToken.Kind.SYMBOL
        && (text.equals("=") || (text.length() == 2 && text.endsWith("=") && !isComparison(text)));
  }

  private static boolean isComparison(String symbol) {
    return symbol.equals("<=") || symbol.equals(">=") || symbol.equals("!=");
  }

  /** {@code SELECT … INTO t FROM …}: INTO at depth 0 before the FROM clause. */
  private static boolean selectsInto(List<SqlToken> tokens, int select) {
    int depth = 0;
    for (int i = select + 1; i < tokens.size(); i++) {
      SqlToken token = tokens.get(i);
      if (token.isSymbol("(")) {
        depth++;
      } else if (token.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && token.isWord("INTO")) {
        return true;
      } else if (depth <= 0 && TokenScan.isWordIn(token, INTO_SCAN_STOPS)) {
        return false;
      }
    }
    return false;
  }
}
