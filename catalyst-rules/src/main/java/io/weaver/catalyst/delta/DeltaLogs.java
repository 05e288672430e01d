package io.weaver.catalyst.delta;

import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * What a load reads from a Delta table's log: the current version, the table's id, the last
 * idempotent-transaction version of an application, a commit's {@code userMetadata}. Through
 * Delta's internal snapshot when {@link DeltaInternals#forLoads()}, else through the public API.
 */
public final class DeltaLogs {
  private DeltaLogs() {}

  /** The latest state of one table's log. */
  public interface TableLog {
    /** The table's current version. */
    long version();

    /** The table's Delta id: tells a table recreated at the same path from the one before it. */
    String tableId();

    /**
     * The last {@code txnVersion} {@code appId} committed (-1 when it never wrote), when this path
     * can read it; empty when it cannot (the public API does not expose Delta's transaction ids).
     */
    OptionalLong txnVersion(String appId);

    /**
     * Computes the snapshot's state (the file list a later scan of this version needs) now, so its
     * cost is paid while something else runs; nothing on the public path.
     */
    void prepareState();
  }

  /** The latest state of the Delta table at {@code path}; empty when there is none. */
  public static Optional<TableLog> at(SparkSession spark, String path) {
    return DeltaInternals.forLoads() ? internal(spark, path) : portable(spark, path);
  }

  /**
   * The current schema of the Delta table at {@code path}, empty when there is none: one read of
   * the log through Delta's snapshot where its internals are present (no Spark job), else the
   * public API's.
   */
  public static Optional<StructType> schema(SparkSession spark, String path) {
    return DeltaInternals.forLoads()
        ? InternalDeltaLog.schema(spark, path)
        : PublicDeltaLog.schema(spark, path);
  }

  /** The log through open-source Delta's snapshot (when {@link DeltaInternals#present()}). */
  public static Optional<TableLog> internal(SparkSession spark, String path) {
    return InternalDeltaLog.at(spark, path);
  }

  /** The log through Delta's public API only, whatever the runtime. */
  public static Optional<TableLog> portable(SparkSession spark, String path) {
    return PublicDeltaLog.at(spark, path);
  }

  /**
   * The {@code userMetadata} of the commit at {@code version}: empty when the commit is gone (log
   * cleanup) or unreadable, "" when it has none.
   */
  public static Optional<String> userMetadataAt(SparkSession spark, String path, long version) {
    if (version < 0) {
      return Optional.empty();
    }
    return DeltaInternals.forLoads()
        ? InternalDeltaLog.userMetadataAt(spark, path, version)
        : portableUserMetadataAt(spark, path, version);
  }

  /** {@link #userMetadataAt} through Delta's public history. */
  public static Optional<String> portableUserMetadataAt(
      SparkSession spark, String path, long version) {
    return PublicDeltaLog.userMetadataAt(spark, path, version);
  }

  /**
   * The {@code userMetadata} of every commit still in the log, newest first (the public path's way
   * to find the last receipt of an application).
   */
  public static java.util.List<String> userMetadata(SparkSession spark, String path) {
    return PublicDeltaLog.userMetadata(spark, path);
  }
}
