package io.weaver.load.history;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.delta.tables.DeltaTable;
import io.weaver.catalogue.NamedRow;
import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.install.HistoryTable;
import io.weaver.load.records.CommitReceipt;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadBookkeeping;
import io.weaver.load.recovery.LoadRecovery;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.ManagedValues;
import io.weaver.load.write.CommitSession;
import io.weaver.metadata.DeletionMode;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.TableDeclaration;
import io.weaver.session.EngineSessions;
import io.weaver.workspace.Identifiers;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Writes the versions of a Table with {@code History: true} into its history table (build.{@link
 * HistoryTable}; docs/table-contract.md, "History").
 *
 * <p>The versions come from the Table itself, not from the load's change set: every row a load
 * writes carries its load timestamp ({@code row_update_datetime} for an insert, update or revival,
 * {@code row_delete_datetime} for a soft delete), so the rows of the Table at its newest version
 * whose time is after the last load the history holds are exactly the versions it lacks — one
 * load's after a load, several after a stop or while History was off (each key's newest version
 * then; the versions in between were never kept). Each key that changed gets its open version
 * closed and a new one opened, in one MERGE. Hard-deleted keys ({@code Deletes: hard}) have no row
 * left: they are the keys whose open version is live but that the Table no longer has.
 *
 * <p>Exactly once: the MERGE commits with its own idempotent transaction ({@code weaver-history:}
 * and the Table, the load sequence as version) and the load's receipt as commit metadata, so a
 * history that already holds a load never takes it again, and the next load of the Table catches up
 * a history that a stop left behind before it stages anything ({@link #catchUp}).
 */
public final class TableHistory {
  private static final String APP_ID = "weaver-history:";
  private static final String DELETED = "__weaver_deleted";
  private static final String AT = "__weaver_at";
  private static final String CLOSE = "__weaver_close";

  private final SparkSession spark;
  private final TableDeclaration table;
  private final String tablePath;
  private final String path;

  public TableHistory(SparkSession spark, TableDeclaration table, String tablePath, String path) {
    this.spark = spark;
    this.table = table;
    this.tablePath = tablePath;
    this.path = path;
  }

  /** The idempotent transaction id of {@code table}'s history writes. */
  static String txnAppId(String table) {
    return APP_ID + table;
  }

  /**
   * Fails unless the history table exists: a Table that declares History is built with it, so a
   * missing one means Build has not run since History was declared.
   */
  void requireBuilt() {
    if (table.primaryKey().isEmpty()) {
      throw new LoadFailure(
          table.qualifiedName()
              + " declares 'History: true' without a 'Primary key': history keeps the versions of"
              + " each key; add a key or remove History (Check rule history). Nothing was written.");
    }
    if (DeltaLogs.schema(spark, path).isEmpty()) {
      throw new LoadFailure(
          table.qualifiedName()
              + " declares 'History: true' but has no history table at "
              + path
              + "; run BUILD WEAVER (bin/weaver build) to create it, then load again. Nothing was"
              + " written.");
    }
  }

  /** The sequence of the last load the history holds; -1 when it holds none. */
  long lastApplied() {
    return DeltaLogProbe.latest(spark, table.qualifiedName() + " history", path)
        .lastTxnVersion(txnAppId(table.qualifiedName()));
  }

  /**
   * Before a load stages anything: when the Table's last committed load ({@code state}) is beyond
   * the last one the history holds, writes the versions the history lacks from the Table as it is.
   */
  public void catchUp(LoadBookkeeping.State state) {
    backlog(state).ifPresent(b -> write(b.versions(), b.newest(), state.sequence()));
  }

  /**
   * How many versions {@link #catchUp} would write before a load of a Table in {@code state} (a
   * plan's count; 0 when the history holds every committed load).
   */
  public long pendingVersions(LoadBookkeeping.State state) {
    if (table.primaryKey().isPresent() && DeltaLogs.schema(spark, path).isEmpty()) {
      // Build, which runs before the load a plan foresees, creates the history table empty; the
      // load then starts it with one version per row the Table holds.
      return state.sequence() > 0 ? spark.read().format("delta").load(tablePath).count() : 0;
    }
    return backlog(state).map(b -> b.versions().count()).orElse(0L);
  }

  /** The versions of the committed loads the history lacks, and the newest of those loads. */
  private record Backlog(Dataset<Row> versions, Optional<CommitReceipt> newest) {}

  private Optional<Backlog> backlog(LoadBookkeeping.State state) {
    requireBuilt();
    long applied = lastApplied();
    if (applied >= state.sequence() || state.sequence() <= 0) {
      return Optional.empty();
    }
    Optional<Instant> since = heldUntil(applied);
    Optional<LoadRecovery.Unrecorded> newest = LoadRecovery.find(spark, tablePath, applied);
    Optional<CommitReceipt> receipt = newest.map(LoadRecovery.Unrecorded::receipt);
    long version = newest.map(LoadRecovery.Unrecorded::version).orElse(-1L);
    return Optional.of(new Backlog(versions(since, receipt, version), receipt));
  }

  /** After the load's commit at {@code version}: the versions it made. */
  public void apply(CommitReceipt receipt, long version) {
    requireBuilt();
    Optional<CommitReceipt> newest = Optional.of(receipt);
    write(versions(heldUntil(lastApplied()), newest, version), newest, receipt.sequence());
  }

  /**
   * The load timestamp of load {@code applied}, the last the history holds (empty when it holds
   * none): from its commit's receipt, or, when the log no longer has that commit, the newest
   * version's start.
   */
  private Optional<Instant> heldUntil(long applied) {
    if (applied < 0) {
      return Optional.empty();
    }
    Optional<CommitReceipt> receipt = receipt(applied);
    if (receipt.isPresent()) {
      return Optional.of(receipt.get().loadTimestamp());
    }
    Object held =
        spark
            .read()
            .format("delta")
            .load(path)
            .agg(functions.max(col(q(HistoryTable.VALID_FROM))).as("held"))
            .first()
            .getAs("held");
    if (held instanceof java.sql.Timestamp t) {
      return Optional.of(t.toInstant());
    }
    return held instanceof Instant i ? Optional.of(i) : Optional.empty();
  }

  /**
   * The version of the history table at {@code path} that holds the loads up to the one that
   * started at {@code loadTimestamp} and none after it: its newest commit whose receipt is of a
   * load that started then or before. Empty when no such commit is left (history began after that
   * load).
   */
  public static Optional<Long> versionAt(SparkSession spark, String path, Instant loadTimestamp) {
    List<Row> commits =
        DeltaTable.forPath(spark, path)
            .history()
            .where(CommitReceipt.carriesReceipt())
            .select("version", "userMetadata")
            .orderBy(col("version").desc())
            .collectAsList();
    for (Row commit : commits) {
      NamedRow row = NamedRow.of(commit);
      Optional<CommitReceipt> receipt = CommitReceipt.parse(row.string("userMetadata"));
      if (receipt.isPresent() && !receipt.get().loadTimestamp().isAfter(loadTimestamp)) {
        return Optional.of(row.longValue("version"));
      }
    }
    return Optional.empty();
  }

  /** The receipt of the history's commit of load {@code sequence}, if its log still has it. */
  private Optional<CommitReceipt> receipt(long sequence) {
    // The newest commit is the last MERGE, unless a Build altered the table since.
    Optional<CommitReceipt> newest =
        DeltaLogs.at(spark, path)
            .flatMap(log -> DeltaLogs.userMetadataAt(spark, path, log.version()))
            .flatMap(CommitReceipt::parse);
    if (newest.isPresent() && newest.get().sequence() == sequence) {
      return newest;
    }
    for (String metadata : DeltaLogs.userMetadata(spark, path)) {
      Optional<CommitReceipt> r = CommitReceipt.parse(metadata);
      if (r.isPresent() && r.get().sequence() == sequence) {
        return r;
      }
    }
    return Optional.empty();
  }

  /**
   * The versions the history lacks: the Table's rows (at {@code version}, or its newest) written
   * after {@code since} (every row when the history holds no load), and under {@code Deletes: hard}
   * the keys {@code newest} removed. Each row holds the versioned columns (the keys among them),
   * its time and whether it is a deletion.
   */
  private Dataset<Row> versions(
      Optional<Instant> since, Optional<CommitReceipt> newest, long version) {
    Dataset<Row> rows =
        version >= 0
            ? spark.read().format("delta").option("versionAsOf", version).load(tablePath)
            : spark.read().format("delta").load(tablePath);
    List<String> keys = table.primaryKey().orElseThrow().columns();
    Set<String> own = Set.copyOf(HistoryTable.OWN_COLUMNS);
    List<String> versioned = new ArrayList<>();
    // The history's columns from its log (requireBuilt made sure it has one).
    Set<String> historyColumns = Set.of(DeltaLogs.schema(spark, path).orElseThrow().fieldNames());
    for (String c : rows.columns()) {
      // The Identity and the business columns; the managed times and signature are not kept.
      if (historyColumns.contains(c) && !own.contains(c)) {
        versioned.add(c);
      }
    }
    Column live = col(q(ManagedColumns.DELETE_TIME)).equalTo(lit(ManagedValues.LIVE_SENTINEL));
    Column at =
        functions
            .when(live, col(q(ManagedColumns.UPDATE_TIME)))
            .otherwise(col(q(ManagedColumns.DELETE_TIME)));
    Column after = lit(true);
    if (since.isPresent()) {
      after = at.gt(lit(since.get()));
    }
    if (newest.isPresent()) {
      after = after.or(at.equalTo(lit(truncated(newest.get().loadTimestamp()))));
    }
    List<Column> selected = new ArrayList<>();
    for (String c : versioned) {
      selected.add(col(q(c)));
    }
    selected.add(at.as(AT));
    selected.add(functions.not(live).as(DELETED));
    Dataset<Row> changed = rows.where(after).select(selected.toArray(Column[]::new));
    if (table.deletes() == DeletionMode.HARD && newest.isPresent()) {
      changed = changed.unionByName(hardDeleted(rows, keys, versioned, newest.get()));
    }
    return changed;
  }

  /**
   * One MERGE: each of {@code changed}'s versions closes its key's open version and opens a new
   * one, committed as load {@code sequence}; {@code newest} names the load that wrote them where it
   * is known (its id goes into {@code load_id}; versions of other loads get null).
   */
  private void write(Dataset<Row> changed, Optional<CommitReceipt> newest, long sequence) {
    List<String> keys = table.primaryKey().orElseThrow().columns();
    List<String> versioned = new ArrayList<>(List.of(changed.columns()));
    versioned.removeAll(List.of(AT, DELETED));
    Dataset<Row> source =
        changed.withColumn(CLOSE, lit(true)).unionByName(changed.withColumn(CLOSE, lit(false)));

    Column on = col("h." + q(HistoryTable.IS_CURRENT)).and(col("u." + q(CLOSE)));
    for (String k : keys) {
      on = on.and(col("h." + q(k)).equalTo(col("u." + q(k))));
    }
    Map<String, Column> close = new LinkedHashMap<>();
    close.put(q(HistoryTable.VALID_TO), col("u." + q(AT)));
    close.put(q(HistoryTable.IS_CURRENT), lit(false));
    Map<String, Column> open = new LinkedHashMap<>();
    for (String c : versioned) {
      open.put(q(c), col("u." + q(c)));
    }
    open.put(q(HistoryTable.VALID_FROM), col("u." + q(AT)));
    open.put(q(HistoryTable.VALID_TO), lit(ManagedValues.LIVE_SENTINEL));
    open.put(q(HistoryTable.IS_CURRENT), lit(true));
    open.put(q(HistoryTable.IS_DELETED), col("u." + q(DELETED)));
    open.put(
        q(HistoryTable.LOAD_ID),
        newest
            .map(
                r ->
                    functions.when(
                        col("u." + q(AT)).equalTo(lit(truncated(r.loadTimestamp()))),
                        lit(r.loadId())))
            .orElse(lit(null).cast("string")));

    SparkSession session = EngineSessions.open(spark);
    session.conf().set(CommitSession.TXN_APP_ID, txnAppId(table.qualifiedName()));
    session.conf().set(CommitSession.TXN_VERSION, Long.toString(sequence));
    newest.ifPresent(
        r ->
            session
                .conf()
                .set(
                    CommitSession.USER_METADATA,
                    new CommitReceipt(r.loadId(), sequence, r.loadTimestamp(), Optional.empty())
                        .toJson()));
    DeltaTable.forPath(session, path)
        .as("h")
        .merge(source.as("u"), on)
        .whenMatched()
        .update(close)
        .whenNotMatched(col("u." + q(CLOSE)).equalTo(lit(false)))
        .insert(open)
        .execute();
  }

  /**
   * The keys whose open version is live but that the Table no longer holds: removed by a hard
   * delete, each a deleted version carrying its last values, at {@code newest}'s time.
   */
  private Dataset<Row> hardDeleted(
      Dataset<Row> rows, List<String> keys, List<String> versioned, CommitReceipt newest) {
    Dataset<Row> openLive =
        spark
            .read()
            .format("delta")
            .load(path)
            .where(
                col(q(HistoryTable.IS_CURRENT))
                    .and(functions.not(col(q(HistoryTable.IS_DELETED)))));
    Dataset<Row> present = rows.select(keys.stream().map(k -> col(q(k))).toArray(Column[]::new));
    List<Column> selected = new ArrayList<>();
    for (String c : versioned) {
      selected.add(col(q(c)));
    }
    selected.add(lit(truncated(newest.loadTimestamp())).as(AT));
    selected.add(lit(true).as(DELETED));
    return openLive
        .join(present, scala.jdk.javaapi.CollectionConverters.asScala(keys).toSeq(), "left_anti")
        .select(selected.toArray(Column[]::new));
  }

  private static Instant truncated(Instant at) {
    return at.truncatedTo(ChronoUnit.MICROS);
  }

  private static String q(String name) {
    return Identifiers.quote(name);
  }
}
