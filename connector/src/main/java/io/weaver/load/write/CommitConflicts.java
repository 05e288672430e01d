package io.weaver.load.write;

import io.delta.exceptions.DeltaConcurrentModificationException;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadStatus;
import org.apache.spark.sql.SparkSession;

/**
 * After the engine: a load that lost a race to another commit is a failure that says who won —
 * another load of this Table (same txn app id), or another writer (OPTIMIZE, a direct write, a
 * schema change) — and that running the load again is safe.
 */
public final class CommitConflicts {
  private final SparkSession spark;
  private final String name;
  private final String path;

  public CommitConflicts(SparkSession spark, String name, String path) {
    this.spark = spark;
    this.name = name;
    this.path = path;
  }

  public LoadOutcome classify(LoadOutcome outcome, LoadRequest request) {
    long sequence = request.loadSequence();
    if (outcome.status() == LoadStatus.SUCCEEDED
        && !outcome.committed()
        && outcome.counts().changed() > 0) {
      return anotherLoad(outcome, sequence);
    }
    if (outcome.conflicted()) {
      // Only a commit of this Table's txn app id is "another load"; OPTIMIZE, a direct write
      // or a schema change conflict too, and the message must not blame a load.
      return anotherLoadCommitted(request.txnAppId(), sequence)
          ? anotherLoad(outcome, sequence)
          : otherWriter(outcome);
    }
    return outcome;
  }

  private LoadOutcome anotherLoad(LoadOutcome o, long sequence) {
    return LoadOutcome.withoutChanges(
        LoadStatus.FAILED,
        o.targetLiveRowsBefore(),
        o.deltaVersion(),
        name
            + ": another load of this table committed load sequence "
            + sequence
            + " first, so this one was not applied;"
            + " run the load again (it will start from the new state)",
        o.warnings());
  }

  private boolean anotherLoadCommitted(String appId, long sequence) {
    try {
      return DeltaLogProbe.latest(spark, name, path).lastTxnVersion(appId) >= sequence;
    } catch (RuntimeException e) {
      return true; // cannot tell: keep the original wording
    }
  }

  private LoadOutcome otherWriter(LoadOutcome o) {
    return LoadOutcome.withoutChanges(
        LoadStatus.FAILED,
        o.targetLiveRowsBefore(),
        o.deltaVersion(),
        name
            + ": another operation (OPTIMIZE, a direct write or a schema change) committed to the"
            + " table while this load ran, so nothing was applied; run the load again ("
            + LoadFailure.firstLine(o.message())
            + ")",
        o.warnings());
  }

  /**
   * Whether {@code failure} (or a cause) is Delta's refusal of a commit that lost to a concurrent
   * one: the public {@code io.delta.exceptions} family ({@code ConcurrentAppendException}, {@code
   * ConcurrentTransactionException}, {@code MetadataChangedException}…, all {@link
   * DeltaConcurrentModificationException}s; Databricks Runtime's Delta documents the same names).
   * Spark may wrap it (a {@code SparkException} around a failed job), so the cause chain is walked.
   */
  public static boolean isConflict(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof DeltaConcurrentModificationException) {
        return true;
      }
    }
    return false;
  }

  /** The message of a load that threw before anything was committed. */
  public static String failureMessage(String name, Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().strip();
    if (e instanceof LoadFailure) {
      return message;
    }
    if (isConflict(e)) {
      return name
          + ": another operation changed the table while this load ran ("
          + LoadFailure.firstLine(message)
          + "); nothing was applied, run the load again";
    }
    return name + ": " + LoadFailure.firstLine(message);
  }
}
