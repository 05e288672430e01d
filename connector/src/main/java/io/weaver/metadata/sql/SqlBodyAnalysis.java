package io.weaver.metadata.sql;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What static analysis found in a Table body.
 *
 * @param statements every statement in order, including {@code GO} batch separators
 * @param resultQueries the statements of kind {@link SqlStatement.Kind#RESULT_QUERY}, in order
 * @param dynamicSqlAt T-SQL only: the first token of each dynamic SQL execution; empty for Spark
 * @param syntaxError the tokenizer's error; when present, {@code statements} holds only the
 *     complete statements before the one the error interrupted
 */
public record SqlBodyAnalysis(
    List<SqlStatement> statements,
    List<SqlStatement> resultQueries,
    List<SqlToken> dynamicSqlAt,
    Optional<SqlSyntaxException> syntaxError) {

  public SqlBodyAnalysis {
    statements = List.copyOf(statements);
    resultQueries = List.copyOf(resultQueries);
    dynamicSqlAt = List.copyOf(dynamicSqlAt);
    Objects.requireNonNull(syntaxError, "syntaxError");
  }
}
