package io.weaver.metadata.sql;

/**
 * Character offsets of token positions: tokens carry 1-based lines and code-point columns (as
 * messages need them); slicing and rewriting source text needs {@code String} offsets.
 */
public final class TextOffsets {
  private final String text;
  private final int[] lineStarts;

  public TextOffsets(String text) {
    this.text = text;
    int lines = 1;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lines++;
      }
    }
    lineStarts = new int[lines];
    int line = 1;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lineStarts[line++] = i + 1;
      }
    }
  }

  /** Offset of a 1-based line and code-point column of a text tokenized from (1, 1). */
  public int of(int line, int column) {
    return text.offsetByCodePoints(lineStarts[line - 1], column - 1);
  }

  /** Offset of a token's first character. */
  public int start(SqlToken token) {
    return of(token.line(), token.column());
  }

  /** Offset just after a token. */
  public int end(SqlToken token) {
    return start(token) + token.text().length();
  }
}
