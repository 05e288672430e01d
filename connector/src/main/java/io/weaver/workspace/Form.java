package io.weaver.workspace;

/** The authored form of a Table. */
public enum Form {
  PYTHON("python"),
  SPARK_SQL("sparksql"),
  TSQL("tsql");

  private final String word;

  Form(String word) {
    this.word = word;
  }

  /** The catalogue spelling ({@code python}, {@code sparksql}, {@code tsql}). */
  public String word() {
    return word;
  }
}
