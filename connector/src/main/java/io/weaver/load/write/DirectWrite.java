package io.weaver.load.write;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;

import io.weaver.catalyst.compat.SessionPlans;
import io.weaver.catalyst.delta.DirectCommit;
import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.diff.ChangeDetector;
import io.weaver.load.diff.UniqueKeyRejector;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadTrace;
import io.weaver.load.spec.ManagedValues;
import io.weaver.metadata.DeletionMode;
import io.weaver.metadata.ManagedColumns;
import io.weaver.session.Ahead;
import io.weaver.session.JobLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The direct write of a keyed load's change set (docs/engine.md, "Write paths"): the rows MERGE
 * would write, written as new data files, and the target rows they replace marked in deletion
 * vectors — one Delta commit, no MERGE joins. The replaced rows are found by one narrow pass over
 * the target behind a key filter of the replaced keys ({@link TargetPositions}), which runs while
 * the caller fetches the change set from staging.
 *
 * <ul>
 *   <li>Updates and revivals: staging's values, the signature, the load time as update time, the
 *       live sentinel; identity value and insert time kept from the located target row.
 *   <li>Soft deletes: the located target row as it is, with the load time as delete time.
 *   <li>Inserts: staging's values and the load time; Delta's writer generates identity values.
 * </ul>
 *
 * Before anything is committed the written and marked row counts are checked against the diff's
 * counts; a mismatch fails the load with nothing applied.
 */
public final class DirectWrite {
  /** The replaced target row's identity value, which its new version keeps. */
  private static final String KEPT_ID = "__weaver_kept_id";

  /** The replaced target row's insert time, which its new version keeps. */
  private static final String KEPT_INSERTED = "__weaver_kept_inserted";

  private final SparkSession spark;
  private final LoadSpec spec;
  private final LoadRequest request;
  private final DirectCommit commit;

  /** The target at {@code version}, as the diff read it. */
  private final Dataset<Row> target;

  /** The locate pass, started beside the fetch of the change set ({@link #locateAhead}). */
  private CompletableFuture<Dataset<Row>> located = CompletableFuture.completedFuture(null);

  /**
   * Opens the commit of a direct write into the target read at {@code version}: Delta's snapshot at
   * that version, whose files the new commit replaces rows of.
   */
  DirectWrite(
      SparkSession spark,
      LoadSpec spec,
      LoadRequest request,
      ChangeDetector detector,
      long version) {
    this.spark = spark;
    this.spec = spec;
    this.request = request;
    this.commit = DirectCommit.begin(spark, spec.targetPath(), version);
    this.target = detector.targetRows(spark, version);
  }

  /**
   * The table's version when Delta has already committed this load's transaction (the answer MERGE
   * gives), else empty: then nothing else is done.
   */
  OptionalLong alreadyApplied() {
    if (commit.lastTxnVersion(request.txnAppId()) >= request.loadSequence()) {
      return OptionalLong.of(
          DeltaLogProbe.latest(spark, spec.tableName(), spec.targetPath()).version());
    }
    return OptionalLong.empty();
  }

  /**
   * Starts the pass that locates the target rows this load replaces, from the diff's checkpointed
   * {@code changedKeys} alone, so it runs while the caller fetches the change set from staging:
   * neither reads what the other produces, and on two cores the second job fills what the first
   * leaves idle (docs/performance.md, "The locate pass beside the fetch").
   */
  void locateAhead(Dataset<Row> changedKeys, ChangeCounts counts) {
    long replaced = counts.replaced();
    if (replaced == 0) {
      return;
    }
    Dataset<Row> keys =
        changedKeys
            .filter(
                col(UniqueKeyRejector.REASON)
                    .isNull()
                    .and(
                        col(ChangeDetector.OP)
                            .isin(
                                ChangeDetector.UPDATE,
                                ChangeDetector.REVIVE,
                                ChangeDetector.DELETE)))
            .select(ChangeSet.keyColumns(spec, ChangeDetector.OP));
    located =
        Ahead.start(
            spark,
            "locate replaced rows",
            () -> {
              Optional<Column> targetKeys = ChangeSet.keyFilter(spec, keys, replaced);
              Dataset<Row> rows =
                  new TargetPositions(spec).locate(keys, target, targetKeys, counts);
              LoadTrace.mark("replaced rows located");
              return rows;
            });
  }

  /**
   * Writes {@code source} (the checkpointed change set, rejections removed) and commits. The caller
   * releases the located rows with {@link #release} whatever happens.
   */
  KeyedMerge.Result write(SparkSession commitSession, Dataset<Row> source, ChangeCounts counts) {
    StructType schema = target.schema();
    Column loadTs = ManagedValues.timestamp(request.loadTimestamp());
    long replaced = counts.replaced();
    Dataset<Row> rows = Ahead.join(located);
    return writeAndCommit(commitSession, source, rows, schema, loadTs, counts, replaced);
  }

  /** Waits for the locate pass (its failure is not this call's to report) and frees its rows. */
  void release() {
    Dataset<Row> rows = located.exceptionally(ignored -> null).join();
    if (rows != null) {
      rows.unpersist(false);
    }
  }

  private KeyedMerge.Result writeAndCommit(
      SparkSession commitSession,
      Dataset<Row> source,
      Dataset<Row> located,
      StructType schema,
      Column loadTs,
      ChangeCounts counts,
      long replaced) {
    Column op = col(ChangeDetector.OP);
    // The vectors are built by their own jobs while the new row versions are written: neither
    // reads what the other writes, and on a small change set both are mostly driver work.
    CompletableFuture<Long> marked =
        replaced == 0
            ? CompletableFuture.completedFuture(0L)
            : Ahead.start(
                spark,
                "deletion vectors",
                () ->
                    commit.markDeleted(
                        located.select(col(TargetPositions.FILE), col(TargetPositions.ROW)),
                        TargetPositions.FILE,
                        TargetPositions.ROW));
    List<Dataset<Row>> replacing = new ArrayList<>();
    if (counts.updated() + counts.revived() > 0) {
      replacing.add(
          replacedVersions(source, located, counts).select(versions(schema, loadTs, true)));
    }
    boolean hard = spec.deletes() == DeletionMode.HARD;
    if (counts.deleted() > 0 && !hard) {
      replacing.add(softDeleted(located, schema, loadTs));
    }
    Optional<Dataset<Row>> inserted =
        counts.inserted() > 0
            ? Optional.of(
                source
                    .filter(op.equalTo(ChangeDetector.INSERT))
                    .select(versions(schema, loadTs, false)))
            : Optional.empty();
    if (spec.identityColumn().isEmpty()) {
      // Every version has the same columns: one write job.
      inserted.ifPresent(replacing::add);
      inserted = Optional.empty();
    }
    try {
      if (!replacing.isEmpty()) {
        JobLabels.step(spark, "write new row versions");
        commit.write(
            SessionPlans.inSession(
                commitSession, replacing.stream().reduce(Dataset::unionByName).get()));
        LoadTrace.mark("row versions written");
      }
      if (inserted.isPresent()) {
        // Without the identity column, which Delta's writer generates for these rows alone.
        JobLabels.step(spark, "write inserted rows");
        commit.write(SessionPlans.inSession(commitSession, inserted.get()));
        LoadTrace.mark("inserted rows written");
      }
    } catch (RuntimeException failure) {
      // A failed write must not leave the vectors' jobs running into the next step; the write's
      // own failure is the one reported.
      marked.exceptionally(ignored -> 0L).join();
      throw failure;
    }
    long markedRows = Ahead.join(marked);
    LoadTrace.mark("deletion vectors stored");
    if (markedRows != replaced) {
      throw mismatch(markedRows + " target rows marked replaced, " + replaced + " expected");
    }
    // A hard delete only marks its row: no new version of it is written.
    long removed = hard ? counts.deleted() : 0;
    long versions = counts.changed() - removed;
    OptionalLong written = commit.rowsWritten();
    if (written.isPresent() && written.getAsLong() != versions) {
      throw mismatch(written.getAsLong() + " rows written, " + versions + " expected");
    }
    JobLabels.step(spark, "commit");
    long committed =
        commit.commit(
            commitSession,
            request.txnAppId(),
            request.loadSequence(),
            counts.inserted(),
            replaced - removed,
            removed);
    return new KeyedMerge.Result(true, committed, null);
  }

  /**
   * Updated and revived rows of {@code source} with the identity value and insert time of the
   * target row they replace ({@link ChangeDetector#TARGET_ID}, {@link
   * ChangeDetector#TARGET_INSERTED}).
   */
  private Dataset<Row> replacedVersions(
      Dataset<Row> source, Dataset<Row> located, ChangeCounts counts) {
    List<Column> kept = new ArrayList<>(List.of(ChangeSet.keyColumns(spec)));
    kept.add(col(ManagedColumns.INSERT_TIME).as(KEPT_INSERTED));
    spec.identityColumn().ifPresent(id -> kept.add(col(ManagedValues.quote(id)).as(KEPT_ID)));
    Dataset<Row> keptValues =
        located
            .filter(col(ChangeDetector.OP).isin(ChangeDetector.UPDATE, ChangeDetector.REVIVE))
            .select(kept.toArray(new Column[0]));
    long replacing = counts.updated() + counts.revived();
    return source
        .filter(col(ChangeDetector.OP).isin(ChangeDetector.UPDATE, ChangeDetector.REVIVE))
        .join(
            replacing <= ChangeSet.BROADCAST_KEYS ? broadcast(keptValues) : keptValues,
            spec.primaryKey().toArray(new String[0]),
            "inner");
  }

  /** Soft-deleted rows: the located target row as it is, with the load time as delete time. */
  private Dataset<Row> softDeleted(Dataset<Row> located, StructType schema, Column loadTs) {
    Dataset<Row> rows = located.filter(col(ChangeDetector.OP).equalTo(ChangeDetector.DELETE));
    List<Column> columns = new ArrayList<>();
    for (StructField field : schema.fields()) {
      Column value =
          field.name().equals(ManagedColumns.DELETE_TIME)
              ? loadTs
              : rows.col(ManagedValues.quote(field.name()));
      columns.add(value.cast(field.dataType()).as(field.name()));
    }
    return rows.select(columns.toArray(new Column[0]));
  }

  /**
   * New row versions from the change set, in the target's column order and types: {@code replacing}
   * keeps the target row's identity value and insert time; otherwise (an insert) the identity
   * column is left out for Delta to generate.
   */
  private Column[] versions(StructType schema, Column loadTs, boolean replacing) {
    Set<String> business = Set.of(spec.businessSchema().fieldNames());
    List<Column> columns = new ArrayList<>();
    for (StructField field : schema.fields()) {
      String name = field.name();
      Column value;
      if (spec.identityColumn().map(name::equals).orElse(false)) {
        if (!replacing) {
          continue;
        }
        value = col(KEPT_ID);
      } else if (business.contains(name)) {
        value = col(ManagedValues.quote(name));
      } else if (name.equals(ManagedColumns.INSERT_TIME)) {
        value = replacing ? col(KEPT_INSERTED) : loadTs;
      } else if (name.equals(ManagedColumns.UPDATE_TIME)) {
        value = loadTs;
      } else if (name.equals(ManagedColumns.DELETE_TIME)) {
        value = ManagedValues.liveSentinel();
      } else if (name.equals(ManagedColumns.SIGNATURE)) {
        value = col(ChangeDetector.SIG);
      } else {
        throw mismatch("the target has a column the load does not know: " + name);
      }
      columns.add(value.cast(field.dataType()).as(name));
    }
    return columns.toArray(new Column[0]);
  }

  private LoadFailure mismatch(String what) {
    return new LoadFailure(
        spec.tableName()
            + ": the direct write found "
            + what
            + "; nothing was committed. Run the load again; if it repeats, set "
            + io.weaver.session.WeaverConf.LOAD_WRITER
            + "=merge and report it.");
  }
}
