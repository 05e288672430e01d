package io.weaver.metadata.sql;

import java.util.List;
import java.util.Optional;

/**
 * Static analysis of a SQL Table body: its statements, which of them return rows, and where T-SQL
 * runs dynamic SQL. Splitting and classification rules are documented on the dialect classes
 * ({@code SparkStatements}, {@code TsqlStatements}, {@code TsqlResultRule}).
 *
 * <p>On a syntax error (an unterminated literal or comment) the statements before the one the error
 * interrupted are still returned, so that Check can say more than "cannot tokenize"; the
 * interrupted statement is dropped since its end is unknown.
 */
public final class SqlBodyAnalyzer {
  private SqlBodyAnalyzer() {}

  /**
   * Analyzes {@code body}, the file text after the header comment, whose first character sits at
   * {@code firstLine}/{@code firstColumn} of its file.
   */
  public static SqlBodyAnalysis analyze(
      String body, SqlDialect dialect, int firstLine, int firstColumn) {
    SqlLexer lexer = new SqlLexer(body, dialect, firstLine, firstColumn);
    Optional<SqlSyntaxException> error = Optional.empty();
    try {
      lexer.run();
    } catch (SqlSyntaxException e) {
      error = Optional.of(e);
    }
    List<SqlToken> tokens = List.copyOf(lexer.tokens());
    List<SqlStatement> statements =
        dialect == SqlDialect.SPARK ? SparkStatements.split(tokens) : TsqlStatements.split(tokens);
    if (error.isPresent() && !statements.isEmpty() && !endsWithSemicolon(tokens)) {
      statements = statements.subList(0, statements.size() - 1);
    }
    List<SqlStatement> results =
        statements.stream().filter(s -> s.kind() == SqlStatement.Kind.RESULT_QUERY).toList();
    List<SqlToken> dynamic =
        dialect == SqlDialect.TSQL ? TsqlDynamicSql.find(tokens) : List.<SqlToken>of();
    return new SqlBodyAnalysis(statements, results, dynamic, error);
  }

  private static boolean endsWithSemicolon(List<SqlToken> tokens) {
    return !tokens.isEmpty() && tokens.get(tokens.size() - 1).kind() == SqlToken.Kind.SEMICOLON;
  }
}
