package io.weaver.load;

import static org.apache.spark.sql.functions.col;

import io.weaver.catalyst.compat.SparkLine;
import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.diff.ChangeDetector;
import io.weaver.load.diff.UniqueKeyRejector;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.expectations.RowExpectations;
import io.weaver.load.expectations.StagingValidator;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.GateVerdict;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadTrace;
import io.weaver.load.spec.Observed;
import io.weaver.load.write.ChangeSet;
import io.weaver.load.write.CommitWriter;
import io.weaver.load.write.KeyedChanges;
import io.weaver.load.write.LoadWriter;
import io.weaver.session.Ahead;
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
 * those counts before anything is written. The load's {@link LoadWriter} ends it: pass 2, only when
 * something changes, fetches the changing rows from staging ({@link ChangeSet}) and commits them in
 * one commit ({@link CommitWriter}); a plan stops there ({@code PlanWriter}).
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
  private final LoadWriter writer;
  private final RowExpectations expectations;
  private Dataset<Row> narrow;

  /** Pass 0's checkpoint of narrow staging, which pass 1 reads instead of staging. */
  private Dataset<Row> pinned;

  /** Pass 1's checkpoint of the changing keys, which pass 2 reads. */
  private Dataset<Row> changedKeys;

  /** Up to two stale rows pass 1 saw (key and sequence value, as JSON), for the message. */
  private List<String> staleSample = List.of();

  KeyedLoad(
      SparkSession spark,
      LoadRequest request,
      StagingValidator validator,
      StagingValidator.Prepared input,
      RowExpectations expectations,
      long version,
      FaultPoints faults,
      LoadWriter writer) {
    this.spark = spark;
    this.request = request;
    this.spec = request.spec();
    this.validator = validator;
    this.input = input;
    this.version = version;
    this.faults = faults;
    this.writer = writer.forKeyed(spec, version);
    this.detector = new ChangeDetector(spec);
    // The expectations are counted as staging's rows pass on their way into the diff (or pass 0),
    // by the validation's observation.
    this.expectations = expectations;
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
      // Decided before the gates and before anything is written: a `fail` expectation a row
      // violates, or a quarantine above its ceiling, fails the load here.
      List<ExpectationCount> expected = expectations.verdict(counts.stagingRows(), input.typed());
      if (counts.changed() > 0 || counts.quarantined() > 0) {
        // A load that writes: its counts are written beside its write. One that writes nothing
        // records them with its history (together with the call's other quiet loads).
        request.quarantine().ifPresent(q -> q.countsAhead(spark, expected));
      }
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
      KeyedChanges changes =
          new KeyedChanges(
              request,
              detector,
              expectations,
              input.typed(),
              changedKeys,
              counts,
              expected,
              version,
              counts.staleNote(staleSample));
      return writer
          .keyed(changes, refused ? refusal : Optional.empty(), warnings)
          .withGates(measured)
          .withExpectations(expected);
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
        SparkLine.observe(
                narrow, sums, checksum[0], Arrays.copyOfRange(checksum, 1, checksum.length))
            .localCheckpoint(true, StorageLevel.MEMORY_AND_DISK());
    Row target = Ahead.join(targetAhead);
    Map<String, Object> staged = Observed.of(sums);
    LoadTrace.mark("pass 0 done");
    // A quarantined row is not unchanged even when the target holds the same values: only the diff
    // classifies it.
    if (SameRows.same(staged, target) && expectations.quarantinedRows(input.typed()) == 0) {
      validator.report(input, Observed.of(input.observation()), 0);
      long rows = SameRows.rows(staged);
      return Optional.of(ChangeCounts.builder().unchanged(rows).liveBefore(rows).build());
    }
    narrow = pinned;
    return Optional.empty();
  }

  /** Pass 1: the diff, one job that counts every change and keeps the changing keys. */
  private ChangeCounts diff() {
    // A snapshot load that deletes absent keys knows the target's live count from the diff's own
    // counts; an incremental one (or one under Deletes: keep) leaves unmentioned rows live, so
    // they are counted by a job of their own (the delete-time column only) beside the diff.
    CompletableFuture<Long> liveAhead =
        !spec.deletesAbsentKeys()
            ? Ahead.start(spark, "live rows", () -> CommitWriter.liveRows(spark, spec, version))
            : null;
    JobLabels.step(spark, "diff");
    Dataset<Row> classified = detector.classify(spark, narrow, input.deleteKeys(), version);
    Dataset<Row> judged = new UniqueKeyRejector(spec).apply(classified);
    LoadTrace.mark("classified");
    // A unique name keeps the plan distinct, so persist() never reuses another load's cache
    // (which would leave this observation unfired).
    Observation observation = new Observation("weaver_load_" + UUID.randomUUID());
    Column[] metrics = ChangeCounts.observed(spec);
    // Observed behind the filter: only changed rows (and duplicate keys, which fail the load)
    // reach the observation, so unchanged rows stay in one generated pipeline.
    Dataset<Row> diff =
        SparkLine.observe(
                judged.filter(ChangeCounts.changedOrDuplicate()),
                observation,
                metrics[0],
                Arrays.copyOfRange(metrics, 1, metrics.length))
            .filter(
                col(ChangeDetector.OP)
                    .isin(
                        ChangeDetector.INSERT,
                        ChangeDetector.UPDATE,
                        ChangeDetector.REVIVE,
                        ChangeDetector.DELETE,
                        ChangeDetector.QUARANTINE))
            .select(ChangeSet.changedKeyColumns(spec));
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
    Map<String, Object> observed = Observed.of(observation);
    staleSample = ChangeCounts.staleSample(observed);
    long stagingRows =
        validator.report(
            input,
            Observed.of(input.observation()),
            ChangeCounts.get(observed, ChangeCounts.DUPLICATES));
    return ChangeCounts.from(
        observed,
        stagingRows,
        liveAhead == null ? OptionalLong.empty() : OptionalLong.of(Ahead.join(liveAhead)));
  }
}
