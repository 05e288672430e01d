package io.weaver.metadata.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the output column names of a result query from its text when every one of them is visible:
 * the select list of the query's first {@code SELECT} (the main one after a {@code WITH} prefix,
 * the first branch of a set operation). Any {@code *}, unaliased expression, {@code VALUES}, {@code
 * TABLE t} or {@code FROM t SELECT …} makes the shape unknown, which Build then infers by running
 * the query.
 */
public final class StaticColumns {
  private static final Set<String> LIST_ENDS =
      Set.of(
          "FROM",
          "WHERE",
          "GROUP",
          "HAVING",
          "ORDER",
          "LIMIT",
          "UNION",
          "EXCEPT",
          "INTERSECT",
          "WINDOW",
          "INTO",
          "CLUSTER",
          "DISTRIBUTE",
          "SORT",
          "OPTION");
  // Spark does not reserve these, so they end the list only when BY follows.
  private static final Set<String> NEED_BY =
      Set.of("GROUP", "ORDER", "CLUSTER", "DISTRIBUTE", "SORT");

  private StaticColumns() {}

  /** The columns of {@code resultQuery} in order, or empty when they are not statically known. */
  public static Optional<List<StaticColumn>> of(SqlStatement resultQuery, SqlDialect dialect) {
    List<SqlToken> tokens = resultQuery.tokens();
    int i = 0;
    while (TokenScan.isSymbol(tokens, i, "(")) {
      i++;
    }
    if (TokenScan.isWord(tokens, i, "WITH")) {
      i = TokenScan.afterWithClause(tokens, i);
      while (TokenScan.isSymbol(tokens, i, "(")) {
        i++;
      }
    }
    if (!TokenScan.isWord(tokens, i, "SELECT") || hasForClause(tokens)) {
      return Optional.empty();
    }
    List<List<SqlToken>> items = selectItems(tokens, SelectPrefix.skip(tokens, i + 1));
    if (items.isEmpty()) {
      return Optional.empty();
    }
    List<StaticColumn> columns = new ArrayList<>();
    for (List<SqlToken> item : items) {
      Optional<SqlToken> name = SelectItemName.of(item, dialect);
      if (name.isEmpty()) {
        return Optional.empty();
      }
      SqlToken token = name.get();
      columns.add(new StaticColumn(SelectItemName.value(token), token.line(), token.column()));
    }
    return Optional.of(List.copyOf(columns));
  }

  /** The select list from {@code first} split at depth-0 commas, up to the clause that ends it. */
  private static List<List<SqlToken>> selectItems(List<SqlToken> tokens, int first) {
    List<List<SqlToken>> items = new ArrayList<>();
    int depth = 0;
    int itemStart = first;
    int i = first;
    for (; i < tokens.size(); i++) {
      SqlToken token = tokens.get(i);
      if (token.isSymbol("(")) {
        depth++;
      } else if (token.isSymbol(")")) {
        if (depth == 0) {
          break;
        }
        depth--;
      } else if (depth == 0 && token.isSymbol(",")) {
        items.add(tokens.subList(itemStart, i));
        itemStart = i + 1;
      } else if (depth == 0 && endsList(tokens, i)) {
        break;
      } else if (token.kind() == SqlToken.Kind.SEMICOLON) {
        break;
      }
    }
    items.add(tokens.subList(itemStart, i));
    return items;
  }

  /** T-SQL {@code FOR XML}/{@code FOR JSON} turns the rows into one document column. */
  private static boolean hasForClause(List<SqlToken> tokens) {
    int depth = 0;
    for (int i = 0; i < tokens.size(); i++) {
      SqlToken token = tokens.get(i);
      if (token.isSymbol("(")) {
        depth++;
      } else if (token.isSymbol(")")) {
        depth--;
      } else if (depth <= 0
          && token.isWord("FOR")
          && (TokenScan.isWord(tokens, i + 1, "XML") || TokenScan.isWord(tokens, i + 1, "JSON"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean endsList(List<SqlToken> tokens, int i) {
    SqlToken token = tokens.get(i);
    if (!TokenScan.isWordIn(token, LIST_ENDS)) {
      return false;
    }
    // Spark's `a IS DISTINCT FROM b` keeps going; a leading DISTINCT was skipped already.
    if (token.isWord("FROM") && TokenScan.isWord(tokens, i - 1, "DISTINCT")) {
      return false;
    }
    // Unreserved words used as names: `window.start`, `t.limit`, `x AS sort`.
    if (TokenScan.isSymbol(tokens, i + 1, ".")
        || TokenScan.isSymbol(tokens, i - 1, ".")
        || TokenScan.isWord(tokens, i - 1, "AS")) {
      return false;
    }
    return !TokenScan.isWordIn(token, NEED_BY) || TokenScan.isWord(tokens, i + 1, "BY");
  }
}
