package io.weaver.metadata.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Spark SQL statement splitting and classification.
 *
 * <p>Statements end at every {@code ;} outside literals and comments, as in Spark's own SQL
 * scripts; empty statements ({@code ;;}) are dropped, and a trailing statement without {@code ;} is
 * kept with {@code terminated=false}. A statement returns rows when it is a query: it starts with
 * {@code SELECT}, {@code VALUES}, {@code TABLE}, {@code FROM … SELECT} (not {@code FROM … INSERT}),
 * {@code WITH …} followed by such a query, or a parenthesised query. Everything else, including
 * {@code SHOW}/{@code DESCRIBE}/{@code EXPLAIN}, counts as setup. SQL scripting compound statements
 * ({@code BEGIN … END}) are not understood: their inner {@code ;} split them.
 */
final class SparkStatements {
  private SparkStatements() {}

  static List<SqlStatement> split(List<SqlToken> tokens) {
    List<SqlStatement> statements = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= tokens.size(); i++) {
      boolean end = i == tokens.size();
      if (!end && tokens.get(i).kind() != SqlToken.Kind.SEMICOLON) {
        continue;
      }
      if (i > start) {
        List<SqlToken> part = tokens.subList(start, i);
        statements.add(new SqlStatement(part, !end, kindOf(part)));
      }
      start = i + 1;
    }
    return statements;
  }

  private static SqlStatement.Kind kindOf(List<SqlToken> tokens) {
    return returnsRows(tokens, 0) ? SqlStatement.Kind.RESULT_QUERY : SqlStatement.Kind.NON_RESULT;
  }

  /** Whether the statement part starting at {@code i} is a query. */
  static boolean returnsRows(List<SqlToken> tokens, int i) {
    if (i < 0 || i >= tokens.size()) {
      return false;
    }
    SqlToken first = tokens.get(i);
    if (first.isWord("SELECT") || first.isWord("VALUES") || first.isWord("TABLE")) {
      return true;
    }
    if (first.isWord("WITH")) {
      return returnsRows(tokens, TokenScan.afterWithClause(tokens, i));
    }
    if (first.isWord("FROM")) {
      return fromClauseSelects(tokens, i + 1);
    }
    if (first.isSymbol("(")) {
      int inner = i;
      while (TokenScan.isSymbol(tokens, inner, "(")) {
        inner++;
      }
      return returnsRows(tokens, inner);
    }
    return false;
  }

  /** {@code FROM t SELECT …} is a query; {@code FROM t INSERT …} (multi-insert) is not. */
  private static boolean fromClauseSelects(List<SqlToken> tokens, int from) {
    int depth = 0;
    for (int i = from; i < tokens.size(); i++) {
      SqlToken token = tokens.get(i);
      if (token.isSymbol("(")) {
        depth++;
      } else if (token.isSymbol(")")) {
        depth--;
      } else if (depth == 0 && token.isWord("SELECT")) {
        return true;
      } else if (depth == 0 && token.isWord("INSERT")) {
        return false;
      }
    }
    return false;
  }
}
