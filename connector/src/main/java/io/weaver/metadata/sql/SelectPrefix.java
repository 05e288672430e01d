package io.weaver.metadata.sql;

import java.util.List;

/**
 * Skips what may stand between {@code SELECT} and its first select item: {@code DISTINCT}/{@code
 * ALL} and T-SQL's {@code TOP n [PERCENT] [WITH TIES]} or {@code TOP (expr)}.
 */
final class SelectPrefix {
  private SelectPrefix() {}

  /** Index of the first select item, given the index just after {@code SELECT}. */
  static int skip(List<SqlToken> tokens, int afterSelect) {
    int i = afterSelect;
    if (TokenScan.isWord(tokens, i, "DISTINCT") || TokenScan.isWord(tokens, i, "ALL")) {
      i++;
    }
    if (TokenScan.isWord(tokens, i, "TOP")) {
      i++;
      if (TokenScan.isSymbol(tokens, i, "(")) {
        i = TokenScan.closingParen(tokens, i) + 1;
      } else if (i < tokens.size()) {
        i++;
      }
      if (TokenScan.isWord(tokens, i, "PERCENT")) {
        i++;
      }
      if (TokenScan.isWord(tokens, i, "WITH") && TokenScan.isWord(tokens, i + 1, "TIES")) {
        i += 2;
      }
    }
    return i;
  }
}
