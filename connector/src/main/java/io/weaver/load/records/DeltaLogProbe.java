package io.weaver.load.records;

import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.load.spec.LoadFailure;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.SparkSession;

/**
 * The load's reads of a target's Delta log — the current version, the table's id, the last load
 * sequence Delta applied — through the Delta adapter ({@link DeltaLogs}), which reads Delta's
 * snapshot where open-source Delta's internals are present and the public history elsewhere.
 */
public final class DeltaLogProbe {
  private final SparkSession spark;
  private final String path;
  private final DeltaLogs.TableLog log;

  private DeltaLogProbe(SparkSession spark, String path, DeltaLogs.TableLog log) {
    this.spark = spark;
    this.path = path;
    this.log = log;
  }

  public static DeltaLogProbe latest(SparkSession spark, String table, String path) {
    return at(spark, path)
        .orElseThrow(
            () ->
                new LoadFailure(
                    table
                        + ": no Delta table at "
                        + path
                        + "; build the Table before loading it."));
  }

  /** The latest state of any Delta table at {@code path}; empty when there is none. */
  static Optional<DeltaLogProbe> at(SparkSession spark, String path) {
    return DeltaLogs.at(spark, path).map(log -> new DeltaLogProbe(spark, path, log));
  }

  public long version() {
    return log.version();
  }

  /** The table's Delta id: tells a table recreated at the same path from the one before it. */
  String tableUuid() {
    return log.tableId();
  }

  /** Warms the snapshot's file list for a later overwrite or scan (internal path only). */
  void computeState() {
    log.prepareState();
  }

  /**
   * The {@code userMetadata} of the commit at {@code version}: empty when it is gone (log cleanup)
   * or unreadable, "" when the commit has none.
   */
  public static Optional<String> userMetadataAt(SparkSession spark, String path, long version) {
    return DeltaLogs.userMetadataAt(spark, path, version);
  }

  /**
   * The last txnVersion committed by {@code appId}, or -1 when it never wrote. Where Delta's
   * transaction ids cannot be read (the public path), the newest Weaver receipt in the log says it:
   * every load commits its sequence as both the txn version and the receipt's {@code sequence}, and
   * only this Table's loads write receipts to its path.
   */
  public long lastTxnVersion(String appId) {
    OptionalLong known = log.txnVersion(appId);
    if (known.isPresent()) {
      return known.getAsLong();
    }
    for (String metadata : DeltaLogs.userMetadata(spark, path)) {
      Optional<CommitReceipt> receipt = CommitReceipt.parse(metadata);
      if (receipt.isPresent()) {
        return receipt.get().sequence();
      }
    }
    return -1L;
  }
}
