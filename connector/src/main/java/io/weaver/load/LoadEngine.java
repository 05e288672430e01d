package io.weaver.load;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;

import io.weaver.metadata.ManagedColumns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Applies one load to its Delta table (spec §11): validate, detect changes in one pass, gate, then
 * write only the changes in one commit.
 *
 * <p>Spark jobs of a keyed load: one aggregate over staging (validation counts), one over the join
 * of staging (and delete keys) with the target's key/signature/delete-time columns, which caches
 * the change set and observes every count in the same pass, then the MERGE, which reads the cached
 * change set. Sample queries run only for failing input.
 */
public final class LoadEngine {
  private LoadEngine() {}

  /** Runs the load; never throws for bad input or refused gates (see the outcome's status). */
  public static LoadOutcome apply(SparkSession spark, LoadRequest request) {
    LoadSpec spec = request.spec();
    try {
      return new LoadEngine().run(spark, request);
    } catch (LoadFaults.InjectedFault stop) {
      throw stop;
    } catch (LoadFailure failure) {
      return failed(spark, spec, failure.getMessage());
    } catch (RuntimeException e) {
      String detail = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
      return failed(spark, spec, spec.tableName() + ": load failed, nothing recorded: " + detail);
    }
  }

  private LoadOutcome run(SparkSession spark, LoadRequest request) {
    LoadSpec spec = request.spec();
    DeltaLogProbe log = DeltaLogProbe.latest(spark, spec.tableName(), spec.targetPath());
    long version = log.version();
    long applied = log.lastTxnVersion(request.txnAppId());
    if (applied >= request.loadSequence()) {
      return LoadOutcome.withoutChanges(
          LoadOutcome.SUCCEEDED,
          liveRows(spark, spec, version),
          version,
          spec.tableName()
              + ": load sequence "
              + request.loadSequence()
              + " was already applied (the table's last is "
              + applied
              + "); nothing written.",
          List.of());
    }
    if (request.staging() == null && request.deleteKeys().isEmpty()) {
      return LoadOutcome.withoutChanges(
          LoadOutcome.NO_WORK,
          liveRows(spark, spec, version),
          version,
          spec.tableName() + ": the body returned no work.",
          List.of());
    }
    Dataset<Row> staging =
        request.staging() != null
            ? request.staging()
            : spark.createDataFrame(List.of(), spec.businessSchema());
    StagingValidator.Validated input =
        new StagingValidator(spec).validate(staging, request.deleteKeys());
    if (!spec.keyed()) {
      return replace(spark, request, input, version);
    }
    return merge(spark, request, input, version);
  }

  private LoadOutcome merge(
      SparkSession spark, LoadRequest request, StagingValidator.Validated input, long version) {
    LoadSpec spec = request.spec();
    Dataset<Row> classified =
        new ChangeDetector(spec).classify(spark, input.rows(), input.deleteKeys(), version);
    Dataset<Row> judged = new UniqueKeyRejector(spec).apply(classified);
    // A unique name keeps the plan distinct, so persist() never reuses another load's cache
    // (which would leave this observation unfired).
    Observation observation = new Observation("weaver_load_" + java.util.UUID.randomUUID());
    Column[] counted = ChangeCounts.observed();
    Dataset<Row> changeSet =
        judged
            .observe(observation, counted[0], Arrays.copyOfRange(counted, 1, counted.length))
            .filter(
                col(ChangeDetector.OP)
                    .isin(
                        ChangeDetector.INSERT,
                        ChangeDetector.UPDATE,
                        ChangeDetector.REVIVE,
                        ChangeDetector.DELETE))
            .select(changeColumns(spec))
            // The one pass over the join fills a local checkpoint and the observation. Not
            // persist(): a write to a path the staging reads makes Spark re-cache every cached
            // plan over that path (CacheManager.recacheByPath), so a concurrent append to the
            // source would recompute the change set from a newer snapshot than the one counted
            // and the MERGE would write rows the counts and gates never saw. A checkpoint is
            // never re-cached (docs/reliability.md, ConcurrentLoadTest).
            .localCheckpoint(true);
    try {
      ChangeCounts counts = ChangeCounts.from(observed(observation));
      LoadFaults.reach(LoadFaults.Phase.AFTER_DIFF);
      List<String> warnings = new ArrayList<>();
      Optional<String> refusal = new StabilityGates(spec).refusal(counts);
      if (refusal.isPresent() && !request.waiveGates()) {
        return LoadOutcome.withoutChanges(
            LoadOutcome.REFUSED, counts.liveBefore(), version, refusal.get(), warnings);
      }
      if (request.waiveGates()) {
        warnings.add(
            spec.tableName()
                + ": stability gates waived for this load"
                + refusal.map(r -> " (they would have refused: " + r + ")").orElse("."));
      }
      Optional<Dataset<Row>> rejections =
          counts.rejected() > 0 ? Optional.of(rejections(spec, changeSet)) : Optional.empty();
      if (counts.changed() == 0) {
        return outcome(
            LoadOutcome.SUCCEEDED,
            counts,
            version,
            false,
            spec.tableName() + ": no changes; nothing written.",
            warnings,
            rejections.orElse(null));
      }
      Dataset<Row> source =
          LoadFaults.inTasks(
              LoadFaults.Phase.DURING_WRITE,
              changeSet.filter(col(UniqueKeyRejector.REASON).isNull()));
      KeyedMerge.Result result =
          new KeyedMerge(spec).run(CommitSession.open(spark, request), source, request);
      if (!result.applied()) {
        return alreadyApplied(spark, spec, request, result.version(), warnings);
      }
      return outcome(
          LoadOutcome.SUCCEEDED,
          counts,
          result.version(),
          true,
          spec.tableName() + ": loaded as version " + result.version() + ".",
          warnings,
          rejections.orElse(null));
    } finally {
      changeSet.unpersist(false);
    }
  }

  private LoadOutcome replace(
      SparkSession spark, LoadRequest request, StagingValidator.Validated input, long version) {
    LoadSpec spec = request.spec();
    long liveBefore = liveRows(spark, spec, version);
    new UnkeyedReplace(spec)
        .run(LoadFaults.inTasks(LoadFaults.Phase.DURING_WRITE, input.rows()), request);
    long after = DeltaLogProbe.latest(spark, spec.tableName(), spec.targetPath()).version();
    if (after == version) {
      return alreadyApplied(spark, spec, request, after, List.of());
    }
    return new LoadOutcome(
        LoadOutcome.SUCCEEDED,
        input.rowCount(),
        0,
        liveBefore,
        0,
        0,
        0,
        liveBefore,
        input.rowCount(),
        after,
        true,
        spec.tableName()
            + ": replaced "
            + liveBefore
            + " rows by "
            + input.rowCount()
            + " as version "
            + after
            + ".",
        List.of(),
        Optional.empty());
  }

  private static java.util.Map<String, Object> observed(Observation observation) {
    try {
      return observation.getAsJava();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the load's counts", e);
    }
  }

  private static Column[] changeColumns(LoadSpec spec) {
    List<Column> columns = new ArrayList<>();
    for (String name : spec.businessSchema().fieldNames()) {
      columns.add(col(ManagedValues.quote(name)));
    }
    columns.add(col(ChangeDetector.SIG));
    columns.add(col(ChangeDetector.OP));
    columns.add(col(UniqueKeyRejector.REASON));
    return columns.toArray(new Column[0]);
  }

  /**
   * Rejected rows, checkpointed so they survive the change set's unpersist and do not recompute the
   * join against a target this load has changed.
   */
  private static Dataset<Row> rejections(LoadSpec spec, Dataset<Row> changeSet) {
    Column key =
        to_json(
            struct(
                spec.primaryKey().stream()
                    .map(k -> col(ManagedValues.quote(k)))
                    .toArray(Column[]::new)));
    Column row =
        to_json(
            struct(
                Arrays.stream(spec.businessSchema().fieldNames())
                    .map(n -> col(ManagedValues.quote(n)))
                    .toArray(Column[]::new)));
    return changeSet
        .filter(col(UniqueKeyRejector.REASON).isNotNull())
        .select(col(UniqueKeyRejector.REASON).as("reason"), key.as("key_json"), row.as("row_json"))
        .localCheckpoint(true);
  }

  private static LoadOutcome outcome(
      String status,
      ChangeCounts counts,
      long version,
      boolean committed,
      String message,
      List<String> warnings,
      Dataset<Row> rejections) {
    return new LoadOutcome(
        status,
        counts.inserted(),
        counts.updated(),
        counts.deleted(),
        counts.revived(),
        counts.unchanged(),
        counts.rejected(),
        counts.liveBefore(),
        counts.liveAfter(),
        version,
        committed,
        message,
        warnings,
        Optional.ofNullable(rejections));
  }

  private static LoadOutcome alreadyApplied(
      SparkSession spark, LoadSpec spec, LoadRequest request, long version, List<String> warnings) {
    return LoadOutcome.withoutChanges(
        LoadOutcome.SUCCEEDED,
        liveRows(spark, spec, version),
        version,
        spec.tableName()
            + ": load sequence "
            + request.loadSequence()
            + " was already applied; Delta skipped the write.",
        warnings);
  }

  private static LoadOutcome failed(SparkSession spark, LoadSpec spec, String message) {
    long version = -1;
    try {
      version = DeltaLogProbe.latest(spark, spec.tableName(), spec.targetPath()).version();
    } catch (RuntimeException ignored) {
      // The failure message already says what is wrong; the version is best effort.
    }
    return LoadOutcome.withoutChanges(LoadOutcome.FAILED, 0, version, message, List.of());
  }

  /** Live rows of the target at {@code version} (reads only the delete-time column). */
  private static long liveRows(SparkSession spark, LoadSpec spec, long version) {
    return spark
        .read()
        .format("delta")
        .option("versionAsOf", version)
        .load(spec.targetPath())
        .filter(col(ManagedColumns.DELETE_TIME).equalTo(ManagedValues.liveSentinel()))
        .count();
  }
}
