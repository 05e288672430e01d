package io.weaver.python;

import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What a Python Table's {@code read()} produced, as handed back to the engine: the staging rows,
 * the delete keys and the bookmark staged with {@code set_bookmark} — or the error that stopped it.
 * Built from Python with {@link #staged} or {@link #failed}.
 */
public final class PythonRead {
  private final Dataset<Row> staging;
  private final Dataset<Row> deleteKeys;
  private final String bookmarkJson;
  private final String error;

  private PythonRead(
      Dataset<Row> staging, Dataset<Row> deleteKeys, String bookmarkJson, String error) {
    this.staging = staging;
    this.deleteKeys = deleteKeys;
    this.bookmarkJson = bookmarkJson;
    this.error = error;
  }

  /**
   * A validated result.
   *
   * @param staging the staging rows, or {@code null} (no work, or deletions only)
   * @param deleteKeys the delete keys, or {@code null}
   * @param bookmarkJson the bookmark staged by {@code set_bookmark} as JSON text, or {@code null}
   *     when {@code set_bookmark} was not called (the committed bookmark stays)
   */
  public static PythonRead staged(
      Dataset<Row> staging, Dataset<Row> deleteKeys, String bookmarkJson) {
    return new PythonRead(staging, deleteKeys, bookmarkJson, null);
  }

  /** {@code read()} raised or broke the return contract; {@code message} says where and why. */
  public static PythonRead failed(String message) {
    return new PythonRead(null, null, null, Objects.requireNonNull(message, "message"));
  }

  public Dataset<Row> staging() {
    return staging;
  }

  public Optional<Dataset<Row>> deleteKeys() {
    return Optional.ofNullable(deleteKeys);
  }

  public Optional<String> bookmarkJson() {
    return Optional.ofNullable(bookmarkJson);
  }

  public Optional<String> error() {
    return Optional.ofNullable(error);
  }
}
