package io.weaver.warehouse;

import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlToken;
import io.weaver.metadata.sql.SqlTokenizer;
import io.weaver.metadata.sql.TextOffsets;
import io.weaver.metadata.sql.TokenScan;
import io.weaver.staging.ParameterBinder;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The authored T-SQL body as the load procedure runs it: named parameters bound to the procedure's
 * own, and each result query turned into an {@code INSERT} into a session temp table.
 *
 * <p>The result query becomes the last common table expression, {@code [__weaver_result]}, and the
 * insert selects the business columns from it by name: the query may return them in any order (the
 * contract's "order free"), and a missing column fails the load naming it. A query that starts with
 * its own {@code WITH} keeps its expressions; ours is appended to the list.
 */
final class StagingStatements {
  /** The common table expression every result query is wrapped in. */
  static final String RESULT = TsqlNames.quote("__weaver_result");

  private static final Map<String, String> PARAMETERS =
      Map.of(
          "load_timestamp", "@load_timestamp",
          "last_load_timestamp", "@last_load_timestamp");

  private StagingStatements() {}

  /** {@code :load_timestamp} and {@code :last_load_timestamp} as the procedure's variables. */
  static String bind(String statement) {
    return ParameterBinder.replaceMarkers(statement, SqlDialect.TSQL, PARAMETERS);
  }

  /** {@code WITH …, [__weaver_result] AS (query) INSERT INTO table (columns) SELECT columns …}. */
  static String insertInto(String resultQuery, String table, List<String> columns) {
    String query = bind(resultQuery).strip();
    List<SqlToken> tokens = SqlTokenizer.tokenize(query, SqlDialect.TSQL, 1, 1);
    String names = columns.stream().map(TsqlNames::quote).collect(Collectors.joining(", "));
    String insert =
        "INSERT INTO " + table + " (" + names + ")\nSELECT " + names + " FROM " + RESULT + ";";
    int main = mainStatement(tokens);
    if (main == 0) {
      return "WITH " + RESULT + " AS (\n" + query + "\n)\n" + insert;
    }
    TextOffsets offsets = new TextOffsets(query);
    int split = offsets.start(tokens.get(main));
    return query.substring(0, split).stripTrailing()
        + ",\n"
        + RESULT
        + " AS (\n"
        + query.substring(split)
        + "\n)\n"
        + insert;
  }

  /**
   * Index of the token where the main query starts: 0 without a {@code WITH} prefix, else the token
   * after the last {@code name [(columns)] AS (…)} of the list.
   */
  private static int mainStatement(List<SqlToken> tokens) {
    if (tokens.isEmpty() || !tokens.get(0).isWord("WITH")) {
      return 0;
    }
    int i = 1;
    while (i < tokens.size()) {
      i++; // the expression's name
      if (i < tokens.size() && tokens.get(i).isSymbol("(")) {
        i = closing(tokens, i) + 1; // its column list
      }
      if (i >= tokens.size() || !tokens.get(i).isWord("AS")) {
        break;
      }
      i++;
      if (i >= tokens.size() || !tokens.get(i).isSymbol("(")) {
        break;
      }
      i = closing(tokens, i) + 1;
      if (i < tokens.size() && tokens.get(i).isSymbol(",")) {
        i++;
        continue;
      }
      return i;
    }
    throw new IllegalArgumentException(
        "a result query's WITH clause could not be read; write it as"
            + " WITH name AS (…)[, …] SELECT …");
  }

  private static int closing(List<SqlToken> tokens, int open) {
    int close = TokenScan.closingParen(tokens, open);
    if (close == tokens.size()) {
      throw new IllegalArgumentException("a result query has an unclosed parenthesis");
    }
    return close;
  }
}
