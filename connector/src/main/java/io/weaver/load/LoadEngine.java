package io.weaver.load;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;
import static org.apache.spark.sql.functions.xxhash64;

import io.weaver.catalyst.keys.KeyFilter;
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
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.storage.StorageLevel;

/**
 * Applies one load to its Delta table (docs/table-contract.md, "Load"): validate, detect changes in
 * one pass, gate, then write only the changes in one commit.
 *
 * <p>Spark jobs of a keyed load: one over the join of narrow staging (key, unique-key columns,
 * signature; and delete keys) with the target's key/signature/delete-time columns, which observes
 * the validation and change counts in the same pass and caches the changing keys; when something
 * changes, one that fetches the changing rows from staging into a checkpoint; then the MERGE, which
 * reads the checkpoint. Sample queries run only for failing input.
 */
public final class LoadEngine {
  /**
   * Incoming changed keys up to this many are broadcast to fetch their rows (bounded driver use).
   */
  static final long BROADCAST_KEYS = 200_000;

  /**
   * Change sets up to this many rows give the MERGE a Bloom filter of their keys (about 10 bits a
   * key at {@link #KEY_FILTER_FPP}: 240 kB at the bound, shipped with the MERGE's tasks). Delta
   * records the condition's SQL text in the commit's history, where the filter shows as a short
   * label ({@link KeyFilter}), not as its bytes.
   */
  static final long KEY_FILTER_ROWS = BROADCAST_KEYS;

  /** The filter's false-positive rate: 1 % of unchanged target rows still reach the joins. */
  static final double KEY_FILTER_FPP = 0.01;

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
    LoadTrace.mark("engine start");
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
    StagingValidator validator = new StagingValidator(spec);
    if (!spec.keyed()) {
      return replace(spark, request, validator.validate(staging, request.deleteKeys()), version);
    }
    if (!staging.queryExecution().analyzed().deterministic()) {
      // The change set is fetched by a second read of staging; pin a non-deterministic body's
      // rows so both reads see the same ones.
      staging = staging.localCheckpoint(true);
    }
    LoadTrace.mark("engine probe done");
    StagingValidator.Prepared prepared = validator.prepare(staging, request.deleteKeys());
    LoadTrace.mark("prepared");
    return merge(spark, request, validator, prepared, version);
  }

  /**
   * A keyed load in two passes over staging. Pass 1, the diff: staging narrowed to key, unique-key
   * columns and signature, full-outer-joined with the target's key, signature and delete time; the
   * same job observes the validation counts (rows, failing casts, nulls, duplicate keys) and the
   * change counts, and keeps only the keys that change. Validation and gates are decided from those
   * counts before anything is written. Pass 2, only when something changes: the business columns of
   * the changing keys are fetched from staging (a broadcast join when they are few), checkpointed
   * once, and merged with Delta's own source materialisation off. Before pass 1, when the Table's
   * previous load changed nothing, pass 0 compares checksums of staging and the target's live rows
   * ({@link SameRows}) and ends the load when they are equal.
   */
  private LoadOutcome merge(
      SparkSession spark,
      LoadRequest request,
      StagingValidator validator,
      StagingValidator.Prepared input,
      long version) {
    LoadSpec spec = request.spec();
    ChangeDetector detector = new ChangeDetector(spec);
    Dataset<Row> narrow = detector.narrow(input.observed());
    Dataset<Row> pinned = null;
    Dataset<Row> changedKeys = null;
    try {
      ChangeCounts counts = null;
      if (request.expectUnchanged() && SameRows.applies(spec, input)) {
        // Pass 0, when the previous load changed nothing: staging's narrow projection is
        // checkpointed while its checksum is observed, and the target's checksum is computed at
        // the same time. Equal checksums: nothing changed and the load ends here; otherwise the
        // diff reads the checkpoint instead of scanning staging again.
        Dataset<Row> targetSums = SameRows.target(spark, spec, detector, version);
        java.util.concurrent.CompletableFuture<Row> targetAhead =
            Ahead.start(spark, targetSums::head);
        Observation sums = new Observation("weaver_same_" + java.util.UUID.randomUUID());
        Column[] checksum = SameRows.checksum(spec.primaryKey(), col(ChangeDetector.SIG));
        pinned =
            narrow
                .observe(sums, checksum[0], Arrays.copyOfRange(checksum, 1, checksum.length))
                .localCheckpoint(true, StorageLevel.MEMORY_AND_DISK());
        Row target = Ahead.join(targetAhead);
        java.util.Map<String, Object> staged = observed(sums);
        LoadTrace.mark("pass 0 done");
        if (SameRows.same(staged, target)) {
          validator.report(input, observed(input.observation()), 0);
          long rows = SameRows.rows(staged);
          counts = new ChangeCounts(0, 0, 0, 0, rows, 0, rows);
        } else {
          narrow = pinned;
        }
      }
      if (counts == null) {
        // A snapshot load knows the target's live count from the diff's own counts; an
        // incremental one leaves unmentioned rows live, so they are counted by a job of their own
        // (the delete-time column only) that runs beside the diff.
        java.util.concurrent.CompletableFuture<Long> liveAhead =
            spec.incremental() ? Ahead.start(spark, () -> liveRows(spark, spec, version)) : null;
        Dataset<Row> classified = detector.classify(spark, narrow, input.deleteKeys(), version);
        Dataset<Row> judged = new UniqueKeyRejector(spec).apply(classified);
        LoadTrace.mark("classified");
        // A unique name keeps the plan distinct, so persist() never reuses another load's cache
        // (which would leave this observation unfired).
        Observation observation = new Observation("weaver_load_" + java.util.UUID.randomUUID());
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
                .select(keyColumns(spec, ChangeDetector.OP, UniqueKeyRejector.REASON));
        changedKeys =
            diff
                // The one pass over the join fills a local checkpoint and both observations. Not
                // persist(): a write to a path the staging reads makes Spark re-cache every cached
                // plan over that path (CacheManager.recacheByPath), so a concurrent append to the
                // source would recompute the changed keys from a newer snapshot than the one
                // counted. A checkpoint is never re-cached (docs/reliability.md,
                // ConcurrentLoadTest).
                .localCheckpoint(true);
        LoadTrace.mark("diff checkpointed");
        LoadTrace.plan("the diff", diff);
        if (pinned != null) {
          // The diff has read it; the change set does not depend on it any more.
          pinned.unpersist(false);
        }
        java.util.Map<String, Object> observed = observed(observation);
        long stagingRows =
            validator.report(
                input, observed(input.observation()), get(observed, ChangeCounts.DUPLICATES));
        counts =
            ChangeCounts.from(
                observed,
                stagingRows,
                liveAhead == null
                    ? java.util.OptionalLong.empty()
                    : java.util.OptionalLong.of(Ahead.join(liveAhead)));
      }
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
      if (counts.changed() == 0 && counts.rejected() == 0) {
        return outcome(
            LoadOutcome.SUCCEEDED,
            counts,
            version,
            false,
            spec.tableName() + ": no changes; nothing written.",
            warnings,
            null);
      }
      LoadTrace.mark("counts read");
      Dataset<Row> changeSet = fetch(spec, detector, input.typed(), changedKeys, counts);
      LoadTrace.mark("fetched");
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
      // Not broadcast: the key filter already narrows the target side of Delta's joins to about
      // the changed rows, and a broadcast source cost more than it saved (it goes through the
      // driver, and the MERGE's left outer join cannot use it) — docs/performance.md, seventh
      // round.
      Dataset<Row> source =
          LoadFaults.inTasks(
              LoadFaults.Phase.DURING_WRITE,
              changeSet.filter(col(UniqueKeyRejector.REASON).isNull()));
      KeyedMerge.Result result =
          new KeyedMerge(spec)
              .run(
                  CommitSession.open(spark, request),
                  source,
                  request,
                  changedKeyFilter(spec, changeSet, counts));
      LoadTrace.mark("merged");
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
      if (changedKeys != null) {
        changedKeys.unpersist(false);
      }
      if (pinned != null) {
        pinned.unpersist(false);
      }
    }
  }

  /**
   * The target rows a bounded change set touches, as a predicate on the target alone: a Bloom
   * filter of the change set's keys (hashed with xxhash64), tested against each target row's key.
   * It holds for every matched row and for about 1 % of the others, so Spark can filter the target
   * below the MERGE's joins, which then shuffle only about the rows that change instead of every
   * row of the touched files (see {@link #KEY_FILTER_ROWS}). Only for key types whose equal values
   * hash equally.
   */
  private static Optional<Column> changedKeyFilter(
      LoadSpec spec, Dataset<Row> changeSet, ChangeCounts counts) {
    if (counts.changed() > KEY_FILTER_ROWS) {
      return Optional.empty();
    }
    List<Column> sourceHashed = new ArrayList<>();
    List<Column> targetHashed = new ArrayList<>();
    for (String key : spec.primaryKey()) {
      org.apache.spark.sql.types.DataType type = spec.businessSchema().apply(key).dataType();
      if (!hashesLikeItJoins(type)) {
        return Optional.empty();
      }
      // Both sides hashed as the declared type, so a target column stored narrower still agrees.
      sourceHashed.add(col(ManagedValues.quote(key)).cast(type));
      targetHashed.add(KeyedMerge.target(key).cast(type));
    }
    Column[] sourceKeys = sourceHashed.toArray(new Column[0]);
    Column[] targetKeys = targetHashed.toArray(new Column[0]);
    org.apache.spark.util.sketch.BloomFilter keys =
        changeSet
            .filter(col(UniqueKeyRejector.REASON).isNull())
            .stat()
            .bloomFilter(xxhash64(sourceKeys), Math.max(1, counts.changed()), KEY_FILTER_FPP);
    return Optional.of(
        KeyFilter.mightContain(
            xxhash64(targetKeys), KeyFilter.KeySet.of(keys, Math.max(1, counts.changed()))));
  }

  /**
   * Key types whose equal values always hash equally: not floating point (a join equates negative
   * and positive zero and every NaN, the hash does not) and not strings under a collation other
   * than binary.
   */
  private static boolean hashesLikeItJoins(org.apache.spark.sql.types.DataType type) {
    return type instanceof org.apache.spark.sql.types.IntegralType
        || type.equals(DataTypes.StringType)
        || type instanceof org.apache.spark.sql.types.DecimalType
        || type instanceof org.apache.spark.sql.types.DateType
        || type instanceof org.apache.spark.sql.types.TimestampType
        || type instanceof org.apache.spark.sql.types.TimestampNTZType
        || type instanceof org.apache.spark.sql.types.BooleanType
        || type instanceof org.apache.spark.sql.types.BinaryType;
  }

  /**
   * Pass 2: the change set with business columns and signature, checkpointed (the one
   * materialisation the MERGE reads). Incoming keys (insert, update, revive, rejected) take their
   * row from staging; deletes need only the key.
   */
  private static Dataset<Row> fetch(
      LoadSpec spec,
      ChangeDetector detector,
      Dataset<Row> typed,
      Dataset<Row> changedKeys,
      ChangeCounts counts) {
    String[] keyNames = spec.primaryKey().toArray(new String[0]);
    long incoming = counts.inserted() + counts.updated() + counts.revived() + counts.rejected();
    Dataset<Row> wanted =
        changedKeys.filter(col(ChangeDetector.OP).notEqual(ChangeDetector.DELETE));
    // The signature is computed after the join: only for the fetched rows.
    Dataset<Row> fetched =
        typed
            .join(incoming <= BROADCAST_KEYS ? broadcast(wanted) : wanted, keyNames, "inner")
            .withColumn(ChangeDetector.SIG, detector.signature(typed));
    Dataset<Row> deleted =
        changedKeys.filter(col(ChangeDetector.OP).equalTo(ChangeDetector.DELETE));
    Dataset<Row> changeSet =
        fetched.unionByName(deleted, true).select(changeColumns(spec)).localCheckpoint(true);
    long expected = counts.changed() + counts.rejected();
    long actual = changeSet.count();
    if (actual != expected) {
      throw new LoadFailure(
          spec.tableName()
              + ": staging returned different rows on its second read ("
              + actual
              + " changed rows fetched, "
              + expected
              + " expected); nothing written. The body must return the same rows when read twice"
              + " within one load.");
    }
    return changeSet;
  }

  private static long get(java.util.Map<String, Object> metrics, String name) {
    Object value = metrics.get(name);
    if (value == null) {
      throw new IllegalStateException("observed metric " + name + " is missing: " + metrics);
    }
    return ((Number) value).longValue();
  }

  private static Column[] keyColumns(LoadSpec spec, String... more) {
    List<Column> columns = new ArrayList<>();
    for (String key : spec.primaryKey()) {
      columns.add(col(ManagedValues.quote(key)));
    }
    for (String name : more) {
      columns.add(col(name));
    }
    return columns.toArray(new Column[0]);
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
