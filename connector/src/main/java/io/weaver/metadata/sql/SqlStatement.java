package io.weaver.metadata.sql;

import java.util.List;
import java.util.Objects;

/**
 * One statement of a body.
 *
 * @param tokens the statement's tokens, never empty; the terminating {@code ;} is not included
 * @param terminated whether a {@code ;} ended the statement
 * @param kind whether the statement returns rows to the caller
 */
public record SqlStatement(List<SqlToken> tokens, boolean terminated, Kind kind) {

  /** What a statement does as far as the body's return contract is concerned. */
  public enum Kind {
    /** A top-level query whose rows reach the caller. */
    RESULT_QUERY,
    /** Setup, control of flow, DML, procedure calls: anything that returns no countable rows. */
    NON_RESULT,
    /** A T-SQL {@code GO} batch separator on its own line, which Table bodies must not use. */
    GO_BATCH
  }

  public SqlStatement {
    tokens = List.copyOf(tokens);
    if (tokens.isEmpty()) {
      throw new IllegalArgumentException("a statement has at least one token");
    }
    Objects.requireNonNull(kind, "kind");
  }

  /** File line of the first token. */
  public int line() {
    return tokens.get(0).line();
  }

  /** File column of the first token. */
  public int column() {
    return tokens.get(0).column();
  }
}
