package io.weaver.load;

import io.weaver.catalogue.Catalogue;
import io.weaver.install.HistoryTable;
import io.weaver.json.PlainRows;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.history.TableHistory;
import io.weaver.load.records.CommitReceipt;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadBookkeeping;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRecorder;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.records.LoadResult;
import io.weaver.load.records.QuarantineRecords;
import io.weaver.load.records.QuietLoadRecords;
import io.weaver.load.recovery.LoadIdRetry;
import io.weaver.load.recovery.LoadRecovery;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadIds;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import io.weaver.load.spec.LoadTrace;
import io.weaver.load.write.CommitConflicts;
import io.weaver.metadata.TableDeclaration;
import io.weaver.session.Ahead;
import io.weaver.session.JobLabels;
import io.weaver.staging.SqlStaging;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt at loading one Table, as its steps in order: precheck ({@link LoadPreconditions}) →
 * recover a commit whose history was never written ({@link LoadRecovery}) → a retried load id
 * ({@link LoadIdRetry}) → stage ({@link StagingProvider}) → diff, gate and apply ({@link
 * LoadEngine}) → classify a lost race ({@link CommitConflicts}) → record history, state and
 * rejections ({@link LoadRecorder}). A plan runs the same steps ({@link #steps}); where they differ
 * (catalogue created or only read, recovery recorded or noted, the engine writing or planning) its
 * {@code Ending} decides.
 */
final class LoadAttempt {
  private static final Logger LOG = LoggerFactory.getLogger(LoadAttempt.class);

  private final SparkSession spark;
  private final LakehouseLayout layout;
  private final TableDeclaration table;
  private final boolean waiveGates;
  private final Optional<StagingProvider> provider;
  private final String unavailable;
  private final Optional<String> requestedLoadId;
  private final FaultPoints faults;
  private final Optional<QuietLoadRecords> quiet;
  private final Instant started = Instant.now();
  private final Instant loadTs;
  private final String loadId;
  private final String name;
  private final String path;

  /**
   * @param provider how the Table is staged; empty: it cannot be, and {@code unavailable} says why
   * @param requestedLoadTimestamp the load timestamp a body already staged with (a Spark Connect
   *     client ran the Python {@code read()} before the load); empty: now
   * @param quiet where a load that finds nothing to write keeps its history and state until its
   *     {@link LoadRunner#load} call ends; empty: it writes them itself
   */
  LoadAttempt(
      SparkSession spark,
      LakehouseLayout layout,
      TableDeclaration table,
      boolean waiveGates,
      Optional<StagingProvider> provider,
      String unavailable,
      Optional<String> requestedLoadId,
      Optional<Instant> requestedLoadTimestamp,
      FaultPoints faults,
      Optional<QuietLoadRecords> quiet) {
    this.spark = spark;
    this.layout = layout;
    this.table = table;
    this.waiveGates = waiveGates;
    this.provider = provider;
    this.unavailable = unavailable;
    this.requestedLoadId = requestedLoadId;
    this.faults = faults;
    this.quiet = quiet;
    this.loadTs = requestedLoadTimestamp.orElse(started).truncatedTo(ChronoUnit.MICROS);
    this.loadId = requestedLoadId.orElseGet(() -> LoadIds.newLoadId(started));
    this.name = table.qualifiedName();
    this.path = layout.tablePath(table.item(), table.tableId());
  }

  /** The load's result, preceded by a {@code recovered} row when an earlier load was recovered. */
  List<LoadResult> run() {
    try (JobLabels.Scope label = JobLabels.open(spark, "load", name)) {
      return steps(new Load());
    }
  }

  /**
   * What this load would do, written nowhere (docs/plan.md): the same preconditions, state,
   * staging, diff and gates as {@link #run}, then a stop before the write. No catalogue table is
   * created, no recovery recorded (a commit without history is noted and planned after), no
   * history, state, rejection or bookmark written, no Delta commit made.
   */
  LoadPlan plan() {
    try (JobLabels.Scope label = JobLabels.open(spark, "plan load", name)) {
      return steps(new Plan());
    }
  }

  /**
   * The steps of a load and of its plan, in order; {@code ending} says at each step what a load
   * records or a plan notes, and ends the attempt with its kind of result.
   */
  private <R> R steps(Ending<R> ending) {
    LoadTrace.start();
    JobLabels.step(spark, "preconditions");
    Optional<LoadPreconditions.Unmet> unmet = LoadPreconditions.unmet(spark, table, path);
    if (unmet.isPresent()) {
      return ending.unmet(unmet.get());
    }
    LoadTrace.mark("isDeltaTable done");
    TargetReads ahead = startTargetReads();
    JobLabels.step(spark, "catalogue and state");
    LoadRecorder recorder =
        new LoadRecorder(ending.catalogue(), table.tableId().toString(), faults, quiet);
    LoadBookkeeping.State state = recorder.state();
    LoadTrace.mark("state read");
    state = ending.recovered(recorder, state, Ahead.join(ahead.lastTxn()));
    LoadTrace.mark("probe done");
    Optional<R> retried = ending.retried(recorder);
    if (retried.isPresent()) {
      return retried.get();
    }
    try {
      if (provider.isEmpty()) {
        return ending.unavailable(recorder);
      }
      return ending.staged(recorder, state, stage(state), ahead.spec());
    } catch (Exception e) {
      return ending.failed(recorder, e);
    }
  }

  /** What a load (or its plan) does at the steps where the two differ. */
  private interface Ending<R> {
    /** A precondition is not met (not built, no load procedure, ...). */
    R unmet(LoadPreconditions.Unmet unmet);

    /** The item's catalogue, which a load creates when missing and a plan only reads. */
    Catalogue catalogue();

    /** The state after a commit whose history was never written: recovered, or noted. */
    LoadBookkeeping.State recovered(
        LoadRecorder recorder, LoadBookkeeping.State state, long lastTxnVersion);

    /** A retried load id already in the history ends the attempt. */
    Optional<R> retried(LoadRecorder recorder);

    /** The Table cannot be staged here ({@code unavailable} says why). */
    R unavailable(LoadRecorder recorder);

    /** The Table was staged: diff, gate and apply or plan. */
    R staged(
        LoadRecorder recorder,
        LoadBookkeeping.State state,
        StagingProvider.Staging staged,
        CompletableFuture<LoadSpec> specAhead);

    /** Staging or the engine threw. */
    R failed(LoadRecorder recorder, Exception e);
  }

  /** The Table's history writer, when it declares {@code History: true}. */
  private Optional<TableHistory> history() {
    return table.history()
        ? Optional.of(new TableHistory(spark, table, path, HistoryTable.path(layout, table)))
        : Optional.empty();
  }

  /** A load: every step recorded in the catalogue; the result rows in order. */
  private final class Load implements Ending<List<LoadResult>> {
    private final List<LoadResult> results = new ArrayList<>();

    /** The outcome of a commit the load made, while its bookkeeping is still to be written. */
    private LoadOutcome committed;

    @Override
    public List<LoadResult> unmet(LoadPreconditions.Unmet unmet) {
      return List.of(
          LoadResult.without(loadId, name, unmet.status(), -1, unmet.message(), started, loadTs));
    }

    @Override
    public Catalogue catalogue() {
      Catalogue catalogue = new Catalogue(spark, layout, table.item());
      catalogue.ensureTables();
      LoadTrace.mark("ensureTables done");
      return catalogue;
    }

    @Override
    public LoadBookkeeping.State recovered(
        LoadRecorder recorder, LoadBookkeeping.State state, long lastTxnVersion) {
      return LoadRecovery.recover(spark, path, name, recorder, state, lastTxnVersion, started)
          .map(
              r -> {
                r.result().ifPresent(results::add);
                return r.state();
              })
          .orElse(state);
    }

    @Override
    public Optional<List<LoadResult>> retried(LoadRecorder recorder) {
      if (requestedLoadId.isEmpty()) {
        return Optional.empty();
      }
      return LoadIdRetry.earlier(recorder, name, loadId, started, loadTs).map(this::ending);
    }

    @Override
    public List<LoadResult> unavailable(LoadRecorder recorder) {
      LoadResult skipped =
          LoadResult.without(loadId, name, LoadStatus.SKIPPED, -1, unavailable, started, loadTs);
      recorder.history(skipped);
      return ending(skipped);
    }

    @Override
    public List<LoadResult> staged(
        LoadRecorder recorder,
        LoadBookkeeping.State state,
        StagingProvider.Staging staged,
        CompletableFuture<LoadSpec> specAhead) {
      long sequence = state.sequence() + 1;
      Optional<String> bookmark = staged.newBookmark().or(state::bookmark);
      CommitReceipt receipt = new CommitReceipt(loadId, sequence, loadTs, bookmark);
      Optional<TableHistory> history = history();
      // The history holds every earlier load before this one commits (its writes go in order).
      history.ifPresent(h -> h.catchUp(state));
      LoadRequest request =
          request(staged, state, specAhead, receipt).withQuarantine(recorder.quarantine(loadId));
      LoadOutcome outcome = LoadEngine.apply(spark, request, faults);
      LoadTrace.mark("engine done");
      // Joined before anything else: the counts written beside the load land before its history.
      boolean countsWritten =
          request.quarantine().map(QuarantineRecords::countsWritten).orElse(false);
      if (outcome.committed()) {
        committed = outcome;
        faults.afterCommit();
        JobLabels.step(spark, "history versions");
        long version = outcome.deltaVersion();
        history.ifPresent(h -> h.apply(receipt, version));
        LoadTrace.mark("history versions written");
      }
      outcome = new CommitConflicts(spark, name, path).classify(outcome, request);
      JobLabels.step(spark, "history and state");
      recorder.rejections(outcome, loadId);
      LoadResult result = LoadResult.of(loadId, name, outcome, waiveGates, started, loadTs);
      recorder.record(outcome, countsWritten, result, state, bookmark, sequence, loadTs);
      return ending(result);
    }

    @Override
    public List<LoadResult> failed(LoadRecorder recorder, Exception e) {
      if (committed != null) {
        // The data is in: a "failed" row would lie. Report the load with a warning; the next load
        // finds its receipt and records it as recovered (or repairs the state only).
        LOG.warn(
            "{}: load {} committed Delta version {} but its history or state could not be written",
            name,
            loadId,
            committed.deltaVersion(),
            e);
        return ending(
            LoadRecorder.bookkeepingFailed(
                loadId, name, committed, e, waiveGates, started, loadTs));
      }
      logFailure(LOG, name, loadId, false, e);
      LoadResult failed =
          LoadResult.without(
              loadId,
              name,
              LoadStatus.FAILED,
              LoadRecovery.currentVersion(spark, path),
              CommitConflicts.failureMessage(name, e),
              started,
              loadTs);
      recorder.history(failed);
      return ending(failed);
    }

    /** The rows so far (a recovered load's), then {@code last}. */
    private List<LoadResult> ending(LoadResult last) {
      results.add(last);
      return results;
    }
  }

  /** A plan: nothing written; what it assumed is noted. */
  private final class Plan implements Ending<LoadPlan> {
    private final List<String> notes = new ArrayList<>();

    @Override
    public LoadPlan unmet(LoadPreconditions.Unmet unmet) {
      return LoadPlan.without(name, unmet.status(), -1, unmet.message(), List.of());
    }

    @Override
    public Catalogue catalogue() {
      return new Catalogue(spark, layout, table.item());
    }

    @Override
    public LoadBookkeeping.State recovered(
        LoadRecorder recorder, LoadBookkeeping.State state, long lastTxnVersion) {
      Optional<LoadRecovery.Unrecorded> pending =
          LoadRecovery.pending(spark, path, state, lastTxnVersion);
      if (pending.isEmpty()) {
        return state;
      }
      LoadRecovery.Unrecorded u = pending.get();
      notes.add(
          "load "
              + u.receipt().loadId()
              + " committed Delta version "
              + u.version()
              + " without history; the next load records it as recovered first (planned after"
              + " it)");
      return LoadRecovery.repaired(u, state);
    }

    @Override
    public Optional<LoadPlan> retried(LoadRecorder recorder) {
      return Optional.empty(); // a plan runs under a new load id
    }

    @Override
    public LoadPlan unavailable(LoadRecorder recorder) {
      return LoadPlan.without(name, LoadStatus.SKIPPED, -1, unavailable, notes);
    }

    @Override
    public LoadPlan staged(
        LoadRecorder recorder,
        LoadBookkeeping.State state,
        StagingProvider.Staging staged,
        CompletableFuture<LoadSpec> specAhead) {
      long sequence = state.sequence() + 1;
      Optional<TableHistory> history = history();
      // Counted before the engine runs, as the load writes them before it stages.
      OptionalLong pending =
          history.isPresent()
              ? OptionalLong.of(history.get().pendingVersions(state))
              : OptionalLong.empty();
      LoadRequest request =
          request(
                  staged,
                  state,
                  specAhead,
                  new CommitReceipt(loadId, sequence, loadTs, Optional.empty()))
              .asPlan();
      LoadOutcome outcome = LoadEngine.apply(spark, request, faults);
      List<Map<String, Object>> sample =
          outcome
              .rejections()
              .map(
                  r ->
                      r.limit(LoadPlan.SAMPLE).collectAsList().stream()
                          .map(PlainRows::row)
                          .toList())
              .orElse(List.of());
      // Each change the load would commit opens one version: an insert, an update, a revival, a
      // soft or hard delete (TableHistory); a load that commits nothing adds none of its own.
      long own = outcome.status() == LoadStatus.SUCCEEDED ? outcome.counts().changed() : 0;
      OptionalLong versions =
          pending.isPresent() ? OptionalLong.of(pending.getAsLong() + own) : OptionalLong.empty();
      return LoadPlan.of(name, outcome, sample, notes, versions);
    }

    @Override
    public LoadPlan failed(LoadRecorder recorder, Exception e) {
      logFailure(LOG, name, loadId, true, e);
      return LoadPlan.without(
          name,
          LoadStatus.FAILED,
          LoadRecovery.currentVersion(spark, path),
          CommitConflicts.failureMessage(name, e),
          notes);
    }
  }

  /** The target's schema and its last applied load sequence, read on their own threads. */
  private record TargetReads(CompletableFuture<LoadSpec> spec, CompletableFuture<Long> lastTxn) {}

  private TargetReads startTargetReads() {
    // The target's schema (a Delta snapshot: a few small Spark jobs on first use) is read while the
    // catalogue is checked and the state read; both only read.
    CompletableFuture<LoadSpec> spec =
        Ahead.start(spark, "target schema", () -> LoadSpec.of(spark, table, path));
    // The target's last idempotent txn version needs the target's Delta snapshot state (Spark
    // jobs), which the diff's scan needs too: computed here, it overlaps the `_.LoadState` read.
    CompletableFuture<Long> lastTxn =
        Ahead.start(
            spark,
            "last applied load",
            () ->
                DeltaLogProbe.latest(spark, name, path).lastTxnVersion(LoadRequest.txnAppId(name)));
    return new TargetReads(spec, lastTxn);
  }

  /**
   * Logs the exception a load (or its plan) failed with, stack trace included, before it becomes a
   * result whose message shows its first line: ERROR for a load, WARN for a plan or a commit that
   * lost a race (run again). A {@link LoadFailure} is not logged: its message, which names the
   * table, column and keys, is the whole story and is in the result.
   */
  static void logFailure(Logger log, String name, String loadId, boolean plan, Exception e) {
    if (e instanceof LoadFailure) {
      return;
    }
    String what = plan ? "{}: the plan of load {} failed" : "{}: load {} failed";
    if (plan || CommitConflicts.isConflict(e)) {
      log.warn(what, name, loadId, e);
    } else {
      log.error(what, name, loadId, e);
    }
  }

  /** Runs the Table's body under the context its state gives (needs a provider). */
  private StagingProvider.Staging stage(LoadBookkeeping.State state) {
    StagingProvider.Context context =
        new StagingProvider.Context(
            loadTs, state.lastSucceededAt().orElse(SqlStaging.NO_EARLIER_LOAD), state.bookmark());
    JobLabels.step(spark, "staging");
    StagingProvider.Staging staged = provider.get().stage(table, context);
    LoadTrace.mark("staged");
    return staged;
  }

  /** The engine's request for {@code staged}, carrying {@code receipt} as commit metadata. */
  private LoadRequest request(
      StagingProvider.Staging staged,
      LoadBookkeeping.State state,
      CompletableFuture<LoadSpec> specAhead,
      CommitReceipt receipt) {
    return new LoadRequest(
        Ahead.join(specAhead),
        staged.staging(),
        staged.deleteKeys(),
        loadTs,
        loadId,
        receipt.sequence(),
        waiveGates,
        receipt.toJson(),
        LoadRecovery.previousChangedNothing(spark, path, state));
  }
}
