package io.weaver.load;

import static org.apache.spark.sql.functions.col;

import io.weaver.session.JobLabels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * One keyed load, in passes over staging. Pass 0 ({@link #sameRows}), only when the Table's
 * previous load changed nothing: checksums of staging and the target's live rows ({@link
 * SameRows}); equal, the load ends. Pass 1 ({@link #diff}): staging narrowed to key, unique-key
 * columns and signature, full-outer-joined with the target's key, signature and delete time; the
 * same job observes the validation counts (rows, failing casts, nulls, duplicate keys) and the
 * change counts, and keeps only the keys that change. The gates ({@link #refusal}) are decided from
 * those counts before anything is written. Pass 2 ({@link #write}), only when something changes:
 * the changing rows are fetched from staging ({@link ChangeSet}) and merged ({@link KeyedMerge}) in
 * one commit.
 */
final class KeyedLoad {
  private final SparkSession spark;
  private final LoadRequest request;
  private final LoadSpec spec;
  private final StagingValidator validator;
  private final StagingValidator.Prepared input;
  private final long version;
  private final FaultPoints faults;
  private final ChangeDetector detector;
  private final WritePath path;
  private Dataset<Row> narrow;

  /** Pass 0's checkpoint of narrow staging, which pass 1 reads instead of staging. */
  private Dataset<Row> pinned;

  /** Pass 1's checkpoint of the changing keys, which pass 2 reads. */
  private Dataset<Row> changedKeys;

  KeyedLoad(
      SparkSession spark,
      LoadRequest request,
      StagingValidator validator,
      StagingValidator.Prepared input,
      long version,
      FaultPoints faults) {
    this.spark = spark;
    this.request = request;
    this.spec = request.spec();
    this.validator = validator;
    this.input = input;
    this.version = version;
    this.faults = faults;
    // A plan writes nothing, so it needs no writer.
    this.path = request.planOnly() ? WritePath.MERGE : WritePath.choose(spark, spec, version);
    this.detector = new ChangeDetector(spec);
    this.narrow = detector.narrow(input.observed());
  }

  /** Runs the passes; releases every checkpoint it made, whatever happens. */
  LoadOutcome run() {
    try {
      ChangeCounts counts =
          request.expectUnchanged() && SameRows.applies(spec, input)
              ? sameRows().orElseGet(this::diff)
              : diff();
      faults.afterDiff();
      List<String> warnings = new ArrayList<>();
      StabilityGates gates = new StabilityGates(spec);
      List<GateVerdict> measured = gates.verdicts(counts, request.waiveGates());
      Optional<String> refusal = gates.refusal(counts);
      if (request.waiveGates()) {
        warnings.add(
            spec.tableName()
                + ": stability gates waived for this load"
                + refusal.map(r -> " (they would have refused: " + r + ")").orElse("."));
      }
      boolean refused = refusal.isPresent() && !request.waiveGates();
      if (request.planOnly()) {
        return plan(counts, refused ? refusal : Optional.empty(), warnings).withGates(measured);
      }
      if (refused) {
        return LoadOutcome.withoutChanges(
                LoadStatus.REFUSED, counts.liveBefore(), version, refusal.get(), warnings)
            .withGates(measured);
      }
      return write(counts, warnings).withGates(measured);
    } finally {
      if (changedKeys != null) {
        changedKeys.unpersist(false);
      }
      if (pinned != null) {
        pinned.unpersist(false);
      }
    }
  }

  /**
   * Pass 0: staging's narrow projection is checkpointed while its checksum is observed, and the
   * target's checksum is computed at the same time. Equal checksums: nothing changed, and these are
   * the counts; otherwise the diff reads the checkpoint instead of scanning staging again.
   */
  private Optional<ChangeCounts> sameRows() {
    JobLabels.step(spark, "compare checksums");
    Dataset<Row> targetSums = SameRows.target(spark, spec, detector, version);
    CompletableFuture<Row> targetAhead = Ahead.start(spark, "target checksum", targetSums::head);
    Observation sums = new Observation("weaver_same_" + UUID.randomUUID());
    Column[] checksum = SameRows.checksum(spec.primaryKey(), col(ChangeDetector.SIG));
    pinned =
        narrow
            .observe(sums, checksum[0], Arrays.copyOfRange(checksum, 1, checksum.length))
            .localCheckpoint(true, StorageLevel.MEMORY_AND_DISK());
    Row target = Ahead.join(targetAhead);
    Map<String, Object> staged = LoadEngine.observed(sums);
    LoadTrace.mark("pass 0 done");
    if (SameRows.same(staged, target)) {
      validator.report(input, LoadEngine.observed(input.observation()), 0);
      long rows = SameRows.rows(staged);
      return Optional.of(new ChangeCounts(0, 0, 0, 0, rows, 0, rows));
    }
    narrow = pinned;
    return Optional.empty();
  }

  /** Pass 1: the diff, one job that counts every change and keeps the changing keys. */
  private ChangeCounts diff() {
    // A snapshot load knows the target's live count from the diff's own counts; an incremental
    // one leaves unmentioned rows live, so they are counted by a job of their own (the
    // delete-time column only) that runs beside the diff.
    CompletableFuture<Long> liveAhead =
        spec.incremental()
            ? Ahead.start(spark, "live rows", () -> LoadEngine.liveRows(spark, spec, version))
            : null;
    JobLabels.step(spark, "diff");
    Dataset<Row> classified = detector.classify(spark, narrow, input.deleteKeys(), version);
    Dataset<Row> judged = new UniqueKeyRejector(spec).apply(classified);
    LoadTrace.mark("classified");
    // A unique name keeps the plan distinct, so persist() never reuses another load's cache
    // (which would leave this observation unfired).
    Observation observation = new Observation("weaver_load_" + UUID.randomUUID());
    Column[] metrics = ChangeCounts.observed();
    // Observed behind the filter: only changed rows (and duplicate keys, which fail the load)
    // reach the observation, so unchanged rows stay in one generated pipeline.
    Dataset<Row> diff =
        judged
            .filter(ChangeCounts.changedOrDuplicate())
            .observe(observation, metrics[0], Arrays.copyOfRange(metrics, 1, metrics.length))
            .filter(
                col(ChangeDetector.OP)
                    .isin(
                        ChangeDetector.INSERT,
                        ChangeDetector.UPDATE,
                        ChangeDetector.REVIVE,
                        ChangeDetector.DELETE))
            .select(ChangeSet.keyColumns(spec, ChangeDetector.OP, UniqueKeyRejector.REASON));
    changedKeys =
        diff
            // The one pass over the join fills a local checkpoint and both observations. Not
            // persist(): a write to a path the staging reads makes Spark re-cache every cached
            // plan over that path (CacheManager.recacheByPath), so a concurrent append to the
            // source would recompute the changed keys from a newer snapshot than the one
            // counted. A checkpoint is never re-cached (docs/reliability.md, ConcurrentLoadTest).
            .localCheckpoint(true);
    LoadTrace.mark("diff checkpointed");
    LoadTrace.plan("the diff", diff);
    if (pinned != null) {
      // The diff has read it; the change set does not depend on it any more.
      pinned.unpersist(false);
    }
    Map<String, Object> observed = LoadEngine.observed(observation);
    long stagingRows =
        validator.report(
            input,
            LoadEngine.observed(input.observation()),
            ChangeCounts.get(observed, ChangeCounts.DUPLICATES));
    return ChangeCounts.from(
        observed,
        stagingRows,
        liveAhead == null ? OptionalLong.empty() : OptionalLong.of(Ahead.join(liveAhead)));
  }

  /**
   * A plan ends here, after the gates: the counts a load would report (a refused plan keeps the
   * counts the gates measured) and, when rows would be rejected, those rows fetched as the load
   * would fetch them. Nothing is written.
   */
  private LoadOutcome plan(ChangeCounts counts, Optional<String> refusal, List<String> warnings) {
    Optional<Dataset<Row>> rejections = Optional.empty();
    if (counts.rejected() > 0) {
      JobLabels.step(spark, "fetch rejected rows");
      rejections =
          Optional.of(
              ChangeSet.rejections(
                  spec, ChangeSet.fetch(spec, detector, input.typed(), changedKeys, counts)));
    }
    if (refusal.isPresent()) {
      return LoadOutcome.planned(
          LoadStatus.REFUSED, counts, version, refusal.get(), warnings, rejections);
    }
    String message =
        counts.changed() == 0
            ? spec.tableName() + ": no changes; a load would write nothing."
            : spec.tableName()
                + ": a load would write "
                + counts.changed()
                + " changed rows in one commit.";
    return LoadOutcome.planned(
        LoadStatus.SUCCEEDED, counts, version, message, warnings, rejections);
  }

  /**
   * Pass 2: fetch the changing rows, record rejections, and write the rest in one commit. On the
   * direct path the target rows the load replaces are located while the change set is fetched.
   */
  private LoadOutcome write(ChangeCounts counts, List<String> warnings) {
    String unchanged = spec.tableName() + ": no changes; nothing written.";
    if (counts.changed() == 0 && counts.rejected() == 0) {
      return LoadOutcome.nothingToWrite(counts, version, unchanged, warnings, Optional.empty());
    }
    LoadTrace.mark("counts read");
    DirectWrite direct =
        path == WritePath.DIRECT && counts.changed() > 0
            ? new DirectWrite(spark, spec, request, detector, version)
            : null;
    try {
      if (direct != null) {
        OptionalLong applied = direct.alreadyApplied();
        if (applied.isPresent()) {
          return LoadEngine.alreadyApplied(spark, spec, request, applied.getAsLong(), warnings);
        }
        direct.locateAhead(changedKeys, counts);
      }
      JobLabels.step(spark, "fetch changed rows");
      Dataset<Row> changeSet = ChangeSet.fetch(spec, detector, input.typed(), changedKeys, counts);
      LoadTrace.mark("fetched");
      Optional<Dataset<Row>> rejections =
          counts.rejected() > 0
              ? Optional.of(ChangeSet.rejections(spec, changeSet))
              : Optional.empty();
      if (counts.changed() == 0) {
        return LoadOutcome.nothingToWrite(counts, version, unchanged, warnings, rejections);
      }
      Dataset<Row> accepted = changeSet.filter(col(UniqueKeyRejector.REASON).isNull());
      // Not broadcast: the key filter already narrows the target side of Delta's joins to about
      // the changed rows, and a broadcast source cost more than it saved (it goes through the
      // driver, and the MERGE's left outer join cannot use it) — docs/performance.md, seventh
      // round.
      Dataset<Row> source = faults.duringWrite(accepted);
      KeyedMerge.Result result;
      if (direct != null) {
        result = direct.write(CommitSession.open(spark, request, counts), source, counts);
        LoadTrace.mark("committed directly");
      } else {
        Optional<Column> keyFilter = ChangeSet.keyFilter(spec, accepted, counts.changed());
        JobLabels.step(spark, "merge");
        result =
            new KeyedMerge(spec)
                .run(CommitSession.open(spark, request, counts), source, request, keyFilter);
        LoadTrace.mark("merged");
      }
      if (!result.applied()) {
        return LoadEngine.alreadyApplied(spark, spec, request, result.version(), warnings);
      }
      return LoadOutcome.committed(
          counts,
          result.version(),
          spec.tableName() + ": loaded as version " + result.version() + ".",
          warnings,
          rejections);
    } finally {
      if (direct != null) {
        direct.release();
      }
    }
  }
}
