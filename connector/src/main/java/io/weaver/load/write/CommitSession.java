package io.weaver.load.write;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.records.CommitReceipt;
import io.weaver.load.records.LoadRequest;
import io.weaver.session.EngineSessions;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * A fresh session carrying one load's idempotent-transaction and commit-metadata confs.
 *
 * <p>Delta reads {@code txnAppId}/{@code txnVersion}/{@code userMetadata} from session-wide confs;
 * setting them on the caller's session would leak into its later writes (a later write with the
 * same app id and version would be silently skipped), so each load writes through its own session.
 * The commit's receipt carries the load's counts by kind of change ({@link CommitReceipt#stamped}).
 */
public final class CommitSession {
  public static final String TXN_APP_ID = "spark.databricks.delta.write.txnAppId";
  public static final String TXN_VERSION = "spark.databricks.delta.write.txnVersion";
  public static final String USER_METADATA = "spark.databricks.delta.commitInfo.userMetadata";

  private CommitSession() {}

  static SparkSession open(
      SparkSession spark,
      LoadRequest request,
      ChangeCounts counts,
      List<ExpectationCount> expectations) {
    // The engine's MERGE assigns managed columns: an engine session, which the DML guards let by.
    SparkSession session = EngineSessions.open(spark);
    session.conf().set(TXN_APP_ID, request.txnAppId());
    session.conf().set(TXN_VERSION, Long.toString(request.loadSequence()));
    session
        .conf()
        .set(USER_METADATA, CommitReceipt.stamped(request.commitMetadata(), counts, expectations));
    return session;
  }
}
