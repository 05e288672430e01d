package io.weaver.metadata.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds where a T-SQL body executes dynamic SQL, whose result shape static analysis cannot see:
 * {@code EXEC[UTE] (…)}, {@code EXEC[UTE] [schema.]sp_executesql}, {@code EXEC[UTE] @var} (not
 * {@code EXEC @status = proc}, a procedure call keeping its return status) and {@code
 * sp_executesql} anywhere else. {@code EXEC schema.proc} is a procedure call, not dynamic SQL.
 */
final class TsqlDynamicSql {
  private TsqlDynamicSql() {}

  static List<SqlToken> find(List<SqlToken> tokens) {
    List<SqlToken> found = new ArrayList<>();
    int coveredUntil = -1;
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken token = tokens.get(i);
      if (token.isWord("EXEC") || token.isWord("EXECUTE")) {
        int covered = executedSqlEnd(tokens, i + 1);
        if (covered > i) {
          found.add(token);
          coveredUntil = covered;
        }
      } else if (i > coveredUntil && isSpExecuteSql(token)) {
        found.add(token);
      }
    }
    return found;
  }

  /**
   * When what follows {@code EXEC} at {@code i} is dynamic SQL, the index of the last token that
   * belongs to that finding (so a {@code sp_executesql} there is not reported twice); else -1.
   */
  private static int executedSqlEnd(List<SqlToken> tokens, int i) {
    if (i >= tokens.size()) {
      return -1;
    }
    SqlToken next = tokens.get(i);
    if (next.isSymbol("(")) {
      return i;
    }
    if (next.kind() == SqlToken.Kind.VARIABLE) {
      return TokenScan.isSymbol(tokens, i + 1, "=") ? -1 : i;
    }
    int last = i;
    while (TokenScan.isSymbol(tokens, last + 1, ".") && last + 2 < tokens.size()) {
      last += 2;
    }
    return isSpExecuteSql(tokens.get(last)) ? last : -1;
  }

  private static boolean isSpExecuteSql(SqlToken token) {
    return token.isIdentifier() && token.identifierValue().equalsIgnoreCase("sp_executesql");
  }
}
