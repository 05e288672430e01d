package io.weaver.catalyst.delta;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.DeltaOperations;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.FileAction;
import org.apache.spark.sql.delta.actions.SetTransaction;
import org.apache.spark.sql.delta.commands.DMLWithDeletionVectorsHelper$;
import org.apache.spark.sql.delta.commands.DeletionVectorBitmapGenerator$;
import org.apache.spark.sql.delta.commands.DeletionVectorResult;
import org.apache.spark.sql.delta.commands.DeletionVectorUtils$;
import org.apache.spark.sql.delta.commands.TouchedFileWithDV;
import org.apache.spark.sql.delta.commands.cdc.CDCReader$;
import org.apache.spark.sql.execution.metric.SQLMetric;
import org.apache.spark.sql.execution.metric.SQLMetrics;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * One Delta commit written directly, without MERGE: new data files for the new row versions, the
 * rows they replace marked in deletion vectors of their files (merged with the vectors already
 * there), the idempotent transaction and the commit's metadata — all in one optimistic transaction
 * read at the version the caller's diff read.
 *
 * <p>The transaction reads the whole table (the diff did), so a concurrent commit that adds or
 * removes files fails this one with Delta's own {@code io.delta.exceptions} conflict, as a MERGE
 * with an insert clause would. Nothing is visible until {@link #commit}; files written before a
 * failure are unreferenced (VACUUM removes them).
 *
 * <p>Open-source Delta's internal transaction API: {@link #unavailable} says when it cannot be used
 * (Delta internals absent, deletion vectors off, change data feed or row tracking on — features
 * whose extra actions this writer does not produce), and the caller then merges instead.
 */
public final class DirectCommit {
  private final SparkSession spark;
  private final DeltaLog log;
  private final OptimisticTransaction txn;

  /** Every file the transaction's snapshot holds, listed once (the vectors are built from it). */
  private final scala.collection.immutable.Seq<AddFile> files;

  /** Added to from the thread that builds the vectors and the one that writes the files. */
  private final List<Action> actions = java.util.Collections.synchronizedList(new ArrayList<>());

  private long filesAdded;
  private long bytesAdded;
  private long rowsWritten;

  /** Whether a file was written without statistics (collection off): its rows are not known. */
  private boolean uncounted;

  private final Map<String, Long> dvMetrics = new java.util.concurrent.ConcurrentHashMap<>();

  private DirectCommit(SparkSession spark, DeltaLog log, OptimisticTransaction txn) {
    this.spark = spark;
    this.log = log;
    this.txn = txn;
    // The diff read every row of this version: any file added or removed since conflicts.
    this.files = txn.filterFiles();
  }

  /**
   * Why the table at {@code path} (at {@code version}) cannot take a direct commit here; empty when
   * it can.
   */
  public static Optional<String> unavailable(SparkSession spark, String path, long version) {
    if (!DeltaInternals.forLoads()) {
      return Optional.of(
          "this runtime's Delta has no open-source transaction API (loads run on the portable"
              + " path)");
    }
    Snapshot snapshot = snapshotAt(DeltaLog.forTable(spark, path), version);
    if (!DeletionVectorUtils$.MODULE$.deletionVectorsWritable(
        snapshot.protocol(), snapshot.metadata())) {
      return Optional.of("deletion vectors are not enabled on the table");
    }
    if (CDCReader$.MODULE$.isCDCEnabledOnTable(snapshot.metadata(), spark)) {
      return Optional.of("the table has change data feed on");
    }
    if (snapshot.metadata().configuration().contains("delta.enableRowTracking")
        && "true"
            .equalsIgnoreCase(
                snapshot.metadata().configuration().apply("delta.enableRowTracking"))) {
      return Optional.of("the table has row tracking on");
    }
    return Optional.empty();
  }

  /** A transaction on the table at {@code path} that reads {@code version} (the diff's). */
  public static DirectCommit begin(SparkSession spark, String path, long version) {
    DeltaLog log = DeltaLog.forTable(spark, path);
    Snapshot snapshot = snapshotAt(log, version);
    OptimisticTransaction txn = log.startTransaction(Option.empty(), Option.apply(snapshot));
    txn.readWholeTable();
    return new DirectCommit(spark, log, txn);
  }

  /** The last version {@code appId} committed (-1 when never); a conflict if another commits. */
  public long lastTxnVersion(String appId) {
    return txn.txnVersion(appId);
  }

  /**
   * Writes {@code rows} as new data files of the table (Delta's own writer: invariants, statistics,
   * and identity values generated for an identity column {@code rows} lacks).
   */
  public void write(Dataset<Row> rows) {
    for (FileAction action : CollectionConverters.asJava(txn.writeFiles(rows))) {
      actions.add(action);
      if (action instanceof AddFile add) {
        filesAdded++;
        bytesAdded += add.size();
        Option<Object> records = add.numLogicalRecords();
        if (records.isDefined()) {
          rowsWritten += ((Number) records.get()).longValue();
        } else {
          uncounted = true;
        }
      }
    }
  }

  /**
   * Marks the rows at {@code positions} deleted: {@code fileColumn} holds each row's {@code
   * _metadata.file_path} and {@code rowColumn} its {@code _metadata.row_index}, as read at this
   * transaction's version. The vectors are built and stored by the executors; the driver receives
   * one descriptor per touched file. Returns the number of rows newly marked.
   *
   * <p>May run on another thread than {@link #write} (the two touch none of each other's state:
   * this reads the transaction's snapshot and metadata only); {@link #commit} after both.
   */
  public long markDeleted(Dataset<Row> positions, String fileColumn, String rowColumn) {
    // The overload taking the transaction builds the row sets and stores the vectors in one call
    // (on every Delta line; its String-path sibling and the prefix argument differ between lines).
    scala.collection.immutable.Seq<DeletionVectorResult> vectors =
        DeletionVectorBitmapGenerator$.MODULE$.buildRowIndexSetsForFilesMatchingCondition(
            spark,
            txn,
            true,
            positions,
            files,
            Literal.TrueLiteral(),
            Option.apply(col(fileColumn)),
            Option.apply(col(rowColumn)));
    scala.collection.immutable.Seq<TouchedFileWithDV> touched =
        DMLWithDeletionVectorsHelper$.MODULE$.findFilesWithMatchingRows(
            txn,
            DMLWithDeletionVectorsHelper$.MODULE$.generateCandidateFileMap(log.dataPath(), files),
            vectors);
    long newlyMarked = 0;
    for (TouchedFileWithDV file : CollectionConverters.asJava(touched)) {
      newlyMarked += file.numberOfModifiedRows();
    }
    Tuple2<
            scala.collection.immutable.Seq<FileAction>,
            scala.collection.immutable.Map<String, Object>>
        processed = DeltaLine.keepUnmarkedRows(spark, txn, touched);
    actions.addAll(CollectionConverters.asJava(processed._1()));
    for (String name :
        List.of(
            "numDeletionVectorsAdded", "numDeletionVectorsRemoved", "numDeletionVectorsUpdated")) {
      Option<Object> value = processed._2().get(name);
      long v = value.isDefined() ? ((Number) value.get()).longValue() : 0L;
      dvMetrics.merge(name, v, Long::sum);
    }
    return newlyMarked;
  }

  /**
   * Rows the data files written so far hold, from their statistics; empty when a file has none
   * (statistics collection turned off).
   */
  public java.util.OptionalLong rowsWritten() {
    return uncounted ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(rowsWritten);
  }

  /** Bytes of the data files written so far. */
  public long bytesAdded() {
    return bytesAdded;
  }

  /**
   * Commits everything written and marked, with {@code appId}/{@code txnVersion} recorded as
   * Delta's idempotent transaction and {@code userMetadata} in the commit's info (read by Delta
   * from the active session: {@code session} is made active for the commit). {@code inserted},
   * {@code updated} and {@code deleted} (rows removed, not replaced) are the row counts history
   * shows under MERGE's metric names. Returns the new version.
   */
  public long commit(
      SparkSession session,
      String appId,
      long txnVersion,
      long inserted,
      long updated,
      long deleted) {
    actions.add(new SetTransaction(appId, txnVersion, Option.apply(System.currentTimeMillis())));
    Map<String, Long> metrics = new LinkedHashMap<>();
    metrics.put("operationNumSourceRows", inserted + updated + deleted);
    metrics.put("numTargetRowsInserted", inserted);
    metrics.put("numTargetRowsUpdated", updated);
    metrics.put("numTargetRowsMatchedUpdated", updated);
    metrics.put("numTargetRowsDeleted", deleted);
    metrics.put("numTargetRowsMatchedDeleted", deleted);
    metrics.put("numTargetRowsCopied", 0L);
    metrics.put("numTargetFilesAdded", filesAdded);
    metrics.put("numTargetBytesAdded", bytesAdded);
    metrics.put(
        "numTargetDeletionVectorsAdded", dvMetrics.getOrDefault("numDeletionVectorsAdded", 0L));
    metrics.put(
        "numTargetDeletionVectorsRemoved", dvMetrics.getOrDefault("numDeletionVectorsRemoved", 0L));
    metrics.put(
        "numTargetDeletionVectorsUpdated", dvMetrics.getOrDefault("numDeletionVectorsUpdated", 0L));
    Map<String, SQLMetric> registered = new LinkedHashMap<>();
    for (Map.Entry<String, Long> m : metrics.entrySet()) {
      SQLMetric metric = SQLMetrics.createMetric(spark.sparkContext(), m.getKey());
      metric.set(m.getValue());
      registered.put(m.getKey(), metric);
    }
    txn.registerSQLMetrics(
        session,
        CollectionConverters.asScala(registered).toMap(scala.$less$colon$less$.MODULE$.refl()));
    DeltaOperations.Merge operation =
        new DeltaOperations.Merge(
            Option.empty(),
            Option.empty(),
            Option.empty(),
            Option.empty(),
            matched(deleted > 0),
            clauses("insert", "new keys"),
            CollectionConverters.asScala(List.<DeltaOperations.MergePredicate>of()).toSeq());
    Optional<SparkSession> before = active();
    SparkSession.setActiveSession(session);
    try {
      return txn.commit(CollectionConverters.asScala(actions).toSeq(), operation);
    } finally {
      before.ifPresentOrElse(SparkSession::setActiveSession, SparkSession::clearActiveSession);
    }
  }

  /** The matched clauses history shows: updates, and hard deletes when the load removed rows. */
  private static scala.collection.immutable.Seq<DeltaOperations.MergePredicate> matched(
      boolean removes) {
    List<DeltaOperations.MergePredicate> clauses = new ArrayList<>();
    clauses.add(
        predicate(
            "update", "update, revive, soft delete (rows replaced through deletion vectors)"));
    if (removes) {
      clauses.add(predicate("delete", "hard delete (rows removed through deletion vectors)"));
    }
    return CollectionConverters.asScala(clauses).toSeq();
  }

  private static DeltaOperations.MergePredicate predicate(String type, String what) {
    return new DeltaOperations.MergePredicate(Option.apply("weaver direct write: " + what), type);
  }

  private static scala.collection.immutable.Seq<DeltaOperations.MergePredicate> clauses(
      String type, String what) {
    return CollectionConverters.asScala(List.of(predicate(type, what))).toSeq();
  }

  /** The snapshot at {@code version}: the cached latest one when that is it. */
  private static Snapshot snapshotAt(DeltaLog log, long version) {
    Snapshot latest = log.update(false, Option.empty(), Option.empty());
    return latest.version() == version ? latest : DeltaLine.snapshotAt(log, version);
  }

  private static Optional<SparkSession> active() {
    Option<SparkSession> active = SparkSession.getActiveSession();
    return active.isDefined() ? Optional.of(active.get()) : Optional.empty();
  }
}
