package io.weaver.load;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import scala.Option;

/**
 * Reads of the Delta log that the public {@code DeltaTable} API does not offer: the current version
 * and the last idempotent-transaction version of an application id.
 *
 * <p>These are internal Delta classes; this is the only class of the load engine that touches them,
 * so a Delta upgrade changes one place (it belongs in the project's {@code compat} package).
 */
final class DeltaLogProbe {
  private final Snapshot snapshot;

  private DeltaLogProbe(Snapshot snapshot) {
    this.snapshot = snapshot;
  }

  static DeltaLogProbe latest(SparkSession spark, String table, String path) {
    Snapshot snapshot =
        DeltaLog.forTable(spark, path).update(false, Option.empty(), Option.empty());
    if (snapshot.version() < 0) {
      throw new LoadFailure(
          table + ": no Delta table at " + path + "; build the Table before loading it.");
    }
    return new DeltaLogProbe(snapshot);
  }

  long version() {
    return snapshot.version();
  }

  /**
   * The table's Delta id (from its metadata; no Spark job): tells a table recreated at the same
   * path from the one that was there before.
   */
  String tableUuid() {
    return snapshot.metadata().id();
  }

  /** The latest snapshot of any Delta table at {@code path}; empty when there is none. */
  static java.util.Optional<DeltaLogProbe> at(SparkSession spark, String path) {
    Snapshot snapshot =
        DeltaLog.forTable(spark, path).update(false, Option.empty(), Option.empty());
    return snapshot.version() < 0
        ? java.util.Optional.empty()
        : java.util.Optional.of(new DeltaLogProbe(snapshot));
  }

  /**
   * Computes (and Delta caches) the snapshot's state — the file list a later overwrite or scan of
   * this version needs — now, so that cost is paid while something else runs.
   */
  void computeState() {
    snapshot.transactions();
  }

  /**
   * The {@code userMetadata} of the commit at {@code version} of the table at {@code path}, read
   * from its log file (no Spark job): empty when the file is gone (log cleanup) or unreadable, ""
   * when the commit has none.
   */
  static java.util.Optional<String> userMetadataAt(SparkSession spark, String path, long version) {
    if (version < 0) {
      return java.util.Optional.empty();
    }
    org.apache.hadoop.fs.Path file =
        new org.apache.hadoop.fs.Path(
            new org.apache.hadoop.fs.Path(path, "_delta_log"),
            String.format(java.util.Locale.ROOT, "%020d.json", version));
    try {
      org.apache.hadoop.fs.FileSystem fs = file.getFileSystem(spark.sessionState().newHadoopConf());
      try (java.io.BufferedReader reader =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  fs.open(file), java.nio.charset.StandardCharsets.UTF_8))) {
        String line;
        while ((line = reader.readLine()) != null) {
          if (line.startsWith("{\"commitInfo\"")) {
            com.fasterxml.jackson.databind.JsonNode metadata =
                io.weaver.json.Json.read(line).path("commitInfo").path("userMetadata");
            return java.util.Optional.of(metadata.isTextual() ? metadata.asText() : "");
          }
        }
        return java.util.Optional.of("");
      }
    } catch (java.io.IOException | RuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  /** The last txnVersion committed by {@code appId}, or -1 when it never wrote. */
  long lastTxnVersion(String appId) {
    Option<Object> version = snapshot.transactions().get(appId);
    return version.isDefined() ? ((Number) version.get()).longValue() : -1L;
  }
}
