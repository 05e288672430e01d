package io.weaver.metadata.sql;

/**
 * A body that cannot even be tokenized: an unterminated string, quoted identifier or block comment.
 * The position is where the unterminated construct opens, as a file position.
 */
public final class SqlSyntaxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;

  SqlSyntaxException(String problem, int line, int column) {
    super(problem + " (line " + line + ", column " + column + ")");
    this.line = line;
    this.column = column;
  }

  /** 1-based file line where the unterminated construct starts. */
  public int line() {
    return line;
  }

  /** 1-based file column where the unterminated construct starts. */
  public int column() {
    return column;
  }
}
