package io.weaver.workspace;

import java.nio.file.Path;

/**
 * One discovered declaration file.
 *
 * @param file absolute path
 * @param relativePath path relative to the workspace root, {@code /}-separated (used in findings)
 * @param target Lakehouse or Warehouse
 * @param item the item folder name
 * @param kind a Table or an authored test
 * @param form the authored form (tests are Spark SQL)
 * @param stem the file name without its extension
 */
public record SourceFile(
    Path file, String relativePath, Target target, String item, Kind kind, Form form, String stem) {

  /** What a discovered file declares. */
  public enum Kind {
    TABLE,
    TEST
  }
}
