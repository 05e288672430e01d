package io.weaver.workspace;

/** Where a declaration's table lives: a Delta Lakehouse or a T-SQL Warehouse. */
public enum Target {
  LAKEHOUSE("Lakehouse"),
  WAREHOUSE("Warehouse");

  private final String folder;

  Target(String folder) {
    this.folder = folder;
  }

  /** The top-level workspace folder of this target, e.g. {@code Lakehouse}. */
  public String folder() {
    return folder;
  }

  /** The lowercase word used in the catalogue ({@code lakehouse}/{@code warehouse}). */
  public String word() {
    return folder.toLowerCase(java.util.Locale.ROOT);
  }
}
