package io.weaver.load;

import io.weaver.metadata.TableDeclaration;
import java.time.Instant;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Produces a load's staging rows: the SQL body of a Table, a Python {@code read()}, or a DataFrame
 * handed to {@code format("weaver")}. The engine accepts them from any caller.
 */
@FunctionalInterface
public interface StagingProvider {

  /**
   * @param staging the staging rows; {@code null} means no work (an incremental Python Table
   *     returning {@code None} or {@code (None, delete_keys)})
   * @param deleteKeys primary-key rows to delete (incremental Tables only)
   * @param newBookmark a bookmark (JSON text) to commit with the data; empty keeps the current one
   */
  record Staging(
      Dataset<Row> staging, Optional<Dataset<Row>> deleteKeys, Optional<String> newBookmark) {}

  /** What a body sees of the load: its timestamps and the last committed bookmark. */
  record Context(Instant loadTimestamp, Instant lastLoadTimestamp, Optional<String> bookmark) {}

  Staging stage(TableDeclaration table, Context context);

  /**
   * {@code provider}, staging one Table at a time however many Tables load side by side: for a
   * runtime that serves one call at a time (a Python worker, a PySpark driver's callbacks). The
   * rest of each load (diff, write, history) still runs beside the others.
   */
  static StagingProvider oneAtATime(StagingProvider provider) {
    Object lock = new Object();
    return (table, context) -> {
      synchronized (lock) {
        return provider.stage(table, context);
      }
    };
  }
}
