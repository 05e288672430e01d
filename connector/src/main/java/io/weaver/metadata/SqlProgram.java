package io.weaver.metadata;

import io.weaver.metadata.sql.SqlStatement;
import io.weaver.metadata.sql.SqlToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The runnable parts of a SQL Table body, as source text: the setup statements (in order, before
 * the first result query), the staging query (the first result query) and the optional delete-key
 * query (the second). Texts are sliced from the authored source, so what runs is what was written.
 */
public record SqlProgram(List<String> setup, String stagingQuery, Optional<String> deleteKeyQuery) {

  public SqlProgram {
    setup = List.copyOf(setup);
  }

  /** Slices a checked SQL body into its program. */
  public static SqlProgram of(TableBody.Sql body) {
    List<String> setup = new ArrayList<>();
    List<String> results = new ArrayList<>();
    for (SqlStatement statement : runnable(body)) {
      if (statement.kind() == SqlStatement.Kind.RESULT_QUERY) {
        results.add(text(body, statement));
      } else {
        setup.add(text(body, statement));
      }
    }
    if (results.isEmpty()) {
      throw new IllegalStateException("a checked SQL body has a result query");
    }
    return new SqlProgram(
        setup, results.get(0), results.size() > 1 ? Optional.of(results.get(1)) : Optional.empty());
  }

  /**
   * The statements a program runs, in body order: setup (before the first result query), the
   * staging query and the delete-key query. Unlike {@link #of} it accepts an unchecked body (one
   * without a result query), so Check can read the same statements Build will run.
   */
  public static List<SqlStatement> runnable(TableBody.Sql body) {
    List<SqlStatement> runnable = new ArrayList<>();
    int results = 0;
    for (SqlStatement statement : body.analysis().statements()) {
      if (statement.kind() == SqlStatement.Kind.RESULT_QUERY && results < 2) {
        results++;
        runnable.add(statement);
      } else if (statement.kind() == SqlStatement.Kind.NON_RESULT && results == 0) {
        runnable.add(statement);
      }
    }
    return List.copyOf(runnable);
  }

  /**
   * The body's source text before its first result query, comments included: the setup exactly as
   * written (control-of-flow blocks and all), for engines that run it as one script.
   */
  public static String setupText(TableBody.Sql body) {
    for (SqlStatement statement : body.analysis().statements()) {
      if (statement.kind() == SqlStatement.Kind.RESULT_QUERY) {
        SqlToken first = statement.tokens().get(0);
        return body.text().substring(0, offset(body, first.line(), first.column()));
      }
    }
    throw new IllegalStateException("a checked SQL body has a result query");
  }

  /** The exact source text of a statement, without its terminating semicolon. */
  public static String text(TableBody.Sql body, SqlStatement statement) {
    SqlToken first = statement.tokens().get(0);
    SqlToken last = statement.tokens().get(statement.tokens().size() - 1);
    int start = offset(body, first.line(), first.column());
    int end = offset(body, last.line(), last.column()) + last.text().length();
    return body.text().substring(start, end);
  }

  /** Character offset in the body text of a 1-based file line and code-point column. */
  static int offset(TableBody.Sql body, int line, int column) {
    String text = body.text();
    int currentLine = body.start().line();
    int currentColumn = body.start().column();
    int i = 0;
    while (i < text.length()
        && (currentLine < line || (currentLine == line && currentColumn < column))) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (cp == '\n') {
        currentLine++;
        currentColumn = 1;
      } else if (cp == '\r' && (i >= text.length() || text.charAt(i) != '\n')) {
        currentLine++;
        currentColumn = 1;
      } else if (cp != '\r') {
        currentColumn++;
      }
    }
    return i;
  }
}
