package io.weaver.load.write;

import static org.apache.spark.sql.functions.col;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.expectations.RowExpectations;
import io.weaver.load.expectations.StagingValidator;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.records.QuarantineRecords;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import io.weaver.load.spec.LoadTrace;
import io.weaver.load.spec.ManagedValues;
import io.weaver.metadata.ManagedColumns;
import io.weaver.session.JobLabels;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A load's end that writes: an unkeyed load's replace, or a keyed load's pass 2 — fetch the
 * changing rows, set aside the rejected ones, and commit the rest in one commit. How that commit is
 * made is the subclass's: {@link MergeWriter} or {@link DirectWriter}.
 */
public abstract class CommitWriter implements LoadWriter {
  protected final SparkSession spark;
  protected final WriteFaultPoints faults;

  CommitWriter(SparkSession spark, WriteFaultPoints faults) {
    this.spark = spark;
    this.faults = faults;
  }

  @Override
  public final boolean plans() {
    return false;
  }

  @Override
  public final LoadOutcome replace(
      LoadRequest request,
      StagingValidator.Validated input,
      ChangeCounts counts,
      List<ExpectationCount> expectations,
      long version) {
    LoadSpec spec = request.spec();
    RowExpectations rules = new RowExpectations(spec);
    Dataset<Row> typed = input.rows();
    Dataset<Row> rows = typed;
    if (counts.quarantined() > 0) {
      JobLabels.step(spark, "quarantine");
      request
          .quarantine()
          .ifPresent(
              q -> q.write(QuarantineRecords.rows(spec, rules, typed.filter(rules.quarantined()))));
      rows = rows.filter(org.apache.spark.sql.functions.not(rules.quarantined()));
    }
    new UnkeyedReplace(spec).run(faults.duringWrite(rows), request, counts, expectations);
    long after = DeltaLogProbe.latest(spark, spec.tableName(), spec.targetPath()).version();
    if (after == version) {
      return alreadyApplied(spark, spec, request, after, List.of());
    }
    return LoadOutcome.committed(
        counts,
        after,
        spec.tableName()
            + ": replaced "
            + counts.liveBefore()
            + " rows by "
            + counts.inserted()
            + " as version "
            + after
            + ".",
        List.of(),
        Optional.empty());
  }

  @Override
  public final LoadOutcome keyed(
      KeyedChanges changes, Optional<String> refusal, List<String> warnings) {
    LoadSpec spec = changes.spec();
    ChangeCounts counts = changes.counts();
    long version = changes.version();
    if (refusal.isPresent()) {
      return LoadOutcome.withoutChanges(
          LoadStatus.REFUSED, counts.liveBefore(), version, refusal.get(), warnings);
    }
    String unchanged = spec.tableName() + ": no changes; nothing written." + changes.staleNote();
    if (counts.changed() == 0 && counts.rejected() == 0 && counts.quarantined() == 0) {
      return LoadOutcome.nothingToWrite(counts, version, unchanged, warnings, Optional.empty());
    }
    LoadTrace.mark("counts read");
    try {
      Optional<LoadOutcome> ended = beforeFetch(changes, warnings);
      if (ended.isPresent()) {
        return ended.get();
      }
      JobLabels.step(spark, "fetch changed rows");
      Dataset<Row> changeSet = changes.changeSet();
      LoadTrace.mark("fetched");
      Optional<Dataset<Row>> rejections =
          counts.rejected() > 0
              ? Optional.of(ChangeSet.rejections(spec, changeSet))
              : Optional.empty();
      if (counts.quarantined() > 0) {
        // Before the Table's commit, keyed by load id: a stop between the two leaves rows of a
        // load that never recorded itself, which the Table's next quarantine write removes.
        JobLabels.step(spark, "quarantine");
        changes
            .request()
            .quarantine()
            .ifPresent(
                q -> q.write(ChangeSet.quarantined(spec, changes.expectations(), changeSet)));
      }
      if (counts.changed() == 0) {
        return LoadOutcome.nothingToWrite(counts, version, unchanged, warnings, rejections);
      }
      Dataset<Row> accepted = changeSet.filter(ChangeSet.accepted());
      // Not broadcast: the key filter already narrows the target side of Delta's joins to about
      // the changed rows, and a broadcast source cost more than it saved (it goes through the
      // driver, and the MERGE's left outer join cannot use it) — docs/performance.md, seventh
      // round.
      Dataset<Row> source = faults.duringWrite(accepted);
      KeyedMerge.Result result = commit(changes, accepted, source);
      if (!result.applied()) {
        return alreadyApplied(spark, spec, changes.request(), result.version(), warnings);
      }
      return LoadOutcome.committed(
          counts,
          result.version(),
          spec.tableName() + ": loaded as version " + result.version() + "." + changes.staleNote(),
          warnings,
          rejections);
    } finally {
      release();
    }
  }

  /**
   * Runs before the changing rows are fetched (something changes or is rejected); an outcome ends
   * the load there.
   */
  protected Optional<LoadOutcome> beforeFetch(KeyedChanges changes, List<String> warnings) {
    return Optional.empty();
  }

  /**
   * Commits {@code source} (the accepted changing rows, with the write-phase fault points) as one
   * commit; {@code accepted} is the same rows without them.
   */
  protected abstract KeyedMerge.Result commit(
      KeyedChanges changes, Dataset<Row> accepted, Dataset<Row> source);

  /** Releases what {@link #beforeFetch} kept, whatever happened. */
  protected void release() {}

  public static LoadOutcome alreadyApplied(
      SparkSession spark, LoadSpec spec, LoadRequest request, long version, List<String> warnings) {
    return LoadOutcome.withoutChanges(
        LoadStatus.SUCCEEDED,
        liveRows(spark, spec, version),
        version,
        spec.tableName()
            + ": load sequence "
            + request.loadSequence()
            + " was already applied; Delta skipped the write.",
        warnings);
  }

  /** Live rows of the target at {@code version} (reads only the delete-time column). */
  public static long liveRows(SparkSession spark, LoadSpec spec, long version) {
    return spark
        .read()
        .format("delta")
        .option("versionAsOf", version)
        .load(spec.targetPath())
        .filter(col(ManagedColumns.DELETE_TIME).equalTo(ManagedValues.liveSentinel()))
        .count();
  }
}
