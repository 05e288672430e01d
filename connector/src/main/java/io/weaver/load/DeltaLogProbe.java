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

  /** The last txnVersion committed by {@code appId}, or -1 when it never wrote. */
  long lastTxnVersion(String appId) {
    Option<Object> version = snapshot.transactions().get(appId);
    return version.isDefined() ? ((Number) version.get()).longValue() : -1L;
  }
}
