package io.weaver.load.recovery;

import io.delta.tables.DeltaTable;
import io.weaver.catalogue.NamedRow;
import io.weaver.load.records.CommitReceipt;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadBookkeeping;
import io.weaver.load.records.LoadRecorder;
import io.weaver.load.records.LoadResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A load whose Delta commit landed but whose history was not written (the process stopped in
 * between): found as the newest Weaver receipt in the table's recent Delta history with a sequence
 * beyond the recorded state, then recorded as {@code recovered} and the state repaired — before the
 * next load stages anything.
 */
public final class LoadRecovery {
  /** How many recent commits to search; loads of one table are strictly sequential. */
  private static final int RECENT_COMMITS = 50;

  /** A committed load the history does not know yet. */
  public record Unrecorded(CommitReceipt receipt, long version, Map<String, String> metrics) {}

  /** The repaired state, and the {@code recovered} row when history lacked the load. */
  public record Recovered(LoadBookkeeping.State state, Optional<LoadResult> result) {}

  private LoadRecovery() {}

  /**
   * Every Weaver commit carries its load sequence as the idempotent txn version, so a commit the
   * history does not know exists only when the log's last txn version ({@code lastTxn}) is beyond
   * the recorded sequence (a 1-3 ms log read); only then is the Delta history searched for its
   * receipt.
   */
  public static Optional<Recovered> recover(
      SparkSession spark,
      String path,
      String name,
      LoadRecorder recorder,
      LoadBookkeeping.State state,
      long lastTxn,
      Instant now) {
    Optional<Unrecorded> unrecorded = pending(spark, path, state, lastTxn);
    if (unrecorded.isEmpty()) {
      return Optional.empty();
    }
    Unrecorded u = unrecorded.get();
    Optional<LoadResult> recovered = Optional.empty();
    // History may already hold the load (the stop came after history, before state): then only
    // the state is repaired, so the load id stays unique in history.
    if (recorder.historyOf(u.receipt().loadId()).isEmpty()) {
      LoadResult result = LoadResult.recovered(name, u.receipt(), u.version(), u.metrics(), now);
      recorder.expectations(result);
      recorder.history(result);
      recovered = Optional.of(result);
    }
    LoadBookkeeping.State repaired = repaired(u, state);
    recorder.state(repaired);
    return Optional.of(new Recovered(repaired, recovered));
  }

  /**
   * The committed load the history does not know yet, if any: only looked for when the log's last
   * txn version ({@code lastTxn}) is beyond the recorded sequence. Reads only.
   */
  public static Optional<Unrecorded> pending(
      SparkSession spark, String path, LoadBookkeeping.State state, long lastTxn) {
    if (lastTxn <= state.sequence()) {
      return Optional.empty();
    }
    return find(spark, path, state.sequence());
  }

  /** The state once {@code u} is recorded: its load is the last one. */
  public static LoadBookkeeping.State repaired(Unrecorded u, LoadBookkeeping.State state) {
    return new LoadBookkeeping.State(
        u.receipt().loadId(),
        Optional.of(u.receipt().loadTimestamp()),
        u.version(),
        u.receipt().bookmark().or(state::bookmark),
        u.receipt().sequence());
  }

  public static Optional<Unrecorded> find(SparkSession spark, String path, long recordedSequence) {
    List<Row> commits =
        DeltaTable.forPath(spark, path)
            .history(RECENT_COMMITS)
            .where(CommitReceipt.carriesReceipt())
            .select("version", "userMetadata", "operationMetrics")
            .collectAsList();
    Unrecorded newest = null;
    for (Row commit : commits) {
      NamedRow row = NamedRow.of(commit);
      Optional<CommitReceipt> receipt = CommitReceipt.parse(row.string("userMetadata"));
      if (receipt.isPresent()
          && receipt.get().sequence() > recordedSequence
          && (newest == null || receipt.get().sequence() > newest.receipt().sequence())) {
        Map<String, String> metrics = row.map("operationMetrics");
        newest = new Unrecorded(receipt.get(), row.longValue("version"), Map.copyOf(metrics));
      }
    }
    return Optional.ofNullable(newest);
  }

  /**
   * Whether the Table's previous load committed nothing (it found no changes): its state names a
   * load whose id is not the receipt of the commit at the state's Delta version. A load after such
   * a load checks for "no change at all" first (docs/performance.md). Unknown (no previous load,
   * log file gone): false.
   */
  public static boolean previousChangedNothing(
      SparkSession spark, String path, LoadBookkeeping.State state) {
    if (state.lastLoadId() == null || state.lastDeltaVersion() < 0) {
      return false;
    }
    return DeltaLogProbe.userMetadataAt(spark, path, state.lastDeltaVersion())
        .map(
            metadata ->
                CommitReceipt.parse(metadata)
                    .map(r -> !r.loadId().equals(state.lastLoadId()))
                    .orElse(true))
        .orElse(false);
  }

  /** The table's current Delta version, or -1 when it cannot be read. */
  public static long currentVersion(SparkSession spark, String path) {
    try {
      return NamedRow.of(DeltaTable.forPath(spark, path).history(1).first()).longValue("version");
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
