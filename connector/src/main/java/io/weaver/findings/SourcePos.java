package io.weaver.findings;

/** A 1-based line and column in a source file (0 when unknown). */
public record SourcePos(int line, int column) {
  public static final SourcePos UNKNOWN = new SourcePos(0, 0);
}
