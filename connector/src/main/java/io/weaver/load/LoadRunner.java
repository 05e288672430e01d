package io.weaver.load;

import io.delta.tables.DeltaTable;
import io.weaver.build.DependencyPlan;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.SqlProgram;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.staging.SqlStaging;
import io.weaver.workspace.Form;
import io.weaver.workspace.Target;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Runs loads (docs/table-contract.md, "Load"): for each Table, recover a load whose commit landed
 * without history, stage the body, hand it to the {@link LoadEngine} with an idempotent transaction
 * and a commit receipt, then record history and state. Loading several Tables runs them in
 * dependency order; a failed, refused or skipped Table skips its dependants, not unrelated Tables.
 */
public final class LoadRunner {
  private static final DateTimeFormatter ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSSSSS").withZone(ZoneOffset.UTC);

  private final SparkSession spark;
  private final WorkspaceModel model;
  private final LakehouseLayout layout;
  private final Consumer<String> progress;
  private final Map<Form, StagingProvider> providers = new HashMap<>();
  private final Map<Form, Function<TableDeclaration, String>> unavailable = new HashMap<>();

  public LoadRunner(
      SparkSession spark, WorkspaceModel model, LakehouseLayout layout, Consumer<String> progress) {
    this.spark = spark;
    this.model = model;
    this.layout = layout;
    this.progress = progress;
    providers.put(Form.SPARK_SQL, this::sqlStaging);
  }

  /** Registers how Tables of a form are staged (the Python bindings register {@code PYTHON}). */
  public LoadRunner withProvider(Form form, StagingProvider provider) {
    providers.put(form, provider);
    return this;
  }

  /**
   * Says why Tables of a form cannot be staged here (their loads are {@code skipped} with this
   * message) when no provider is registered for it.
   */
  public LoadRunner withUnavailable(Form form, Function<TableDeclaration, String> reason) {
    unavailable.put(form, reason);
    return this;
  }

  /** Loads every selected Table in dependency order. */
  public List<LoadResult> load(Predicate<TableDeclaration> selected, boolean waiveGates) {
    DependencyPlan plan = DependencyPlan.resolve(model);
    List<TableDeclaration> tables = plan.order().stream().filter(selected).toList();
    Map<String, LoadResult> byTable = new HashMap<>();
    List<LoadResult> results = new ArrayList<>();
    int done = 0;
    for (TableDeclaration t : tables) {
      progress.accept("load " + (++done) + "/" + tables.size() + " " + t.qualifiedName());
      Optional<String> stoppedBy =
          plan.edgesOf(t).stream()
              .filter(e -> e.dependsOnItem() != null)
              .map(e -> e.dependsOnItem() + "." + e.dependsOnTableId())
              .filter(dep -> byTable.containsKey(dep) && byTable.get(dep).stopsDependants())
              .findFirst();
      List<LoadResult> these;
      if (stoppedBy.isPresent()) {
        Instant now = Instant.now();
        these =
            List.of(
                LoadResult.without(
                    newLoadId(now),
                    t.qualifiedName(),
                    LoadResult.SKIPPED,
                    -1,
                    "not loaded: dependency "
                        + stoppedBy.get()
                        + " was "
                        + byTable.get(stoppedBy.get()).status(),
                    now,
                    null));
      } else {
        these = loadOne(t, waiveGates, Optional.empty());
      }
      results.addAll(these);
      byTable.put(t.qualifiedName(), these.get(these.size() - 1));
    }
    return results;
  }

  /**
   * Loads one Table; {@code staging} overrides its body (a DataFrame write). Returns the load's
   * result, preceded by a {@code recovered} row when an earlier load's history had to be recovered.
   */
  public List<LoadResult> loadOne(
      TableDeclaration t, boolean waiveGates, Optional<StagingProvider> staging) {
    return loadOne(t, waiveGates, staging, Optional.empty());
  }

  /**
   * Loads one Table under a caller-chosen load id: a retry of a load whose outcome the caller does
   * not know. When that load id is already in the Table's history (or committed without history,
   * which is recovered first) the retry writes nothing and reports so; otherwise it is a new load
   * that carries the id.
   *
   * @throws IllegalArgumentException when {@code loadId} is not 1–100 characters of letters,
   *     digits, {@code . _ : -}
   */
  public List<LoadResult> loadOne(
      TableDeclaration t,
      boolean waiveGates,
      Optional<StagingProvider> staging,
      Optional<String> requestedLoadId) {
    requestedLoadId.ifPresent(LoadRunner::requireValidLoadId);
    LoadTrace.start();
    Instant started = Instant.now();
    Instant loadTs = started.truncatedTo(ChronoUnit.MICROS);
    String loadId = requestedLoadId.orElseGet(() -> newLoadId(started));
    String name = t.qualifiedName();
    String path = layout.tablePath(t.item(), t.tableId());
    if (t.target() == Target.WAREHOUSE) {
      return List.of(
          LoadResult.without(
              loadId,
              name,
              LoadResult.SKIPPED,
              -1,
              "Warehouse Tables load through a T-SQL endpoint (spark.weaver.item."
                  + t.item()
                  + ".jdbcUrl); none is configured",
              started,
              loadTs));
    }
    if (!t.hasLoadProcedure()) {
      return List.of(
          LoadResult.without(
              loadId,
              name,
              LoadResult.SKIPPED,
              -1,
              "'Has load procedure: false': Weaver installs the structure only",
              started,
              loadTs));
    }
    if (!DeltaTable.isDeltaTable(spark, path)) {
      return List.of(
          LoadResult.without(
              loadId,
              name,
              LoadOutcome.FAILED,
              -1,
              name + " is not built yet; run build first",
              started,
              loadTs));
    }
    LoadTrace.mark("isDeltaTable done");
    // The target's schema (a Delta snapshot: a few small Spark jobs on first use) is read while the
    // catalogue is checked and the state read; both only read.
    CompletableFuture<LoadSpec> specAhead = Ahead.start(spark, () -> spec(t, path));
    // The target's last idempotent txn version needs the target's Delta snapshot state (Spark
    // jobs), which the diff's scan needs too: computed here, it overlaps the `_.LoadState` read.
    CompletableFuture<Long> lastTxnAhead =
        Ahead.start(
            spark,
            () ->
                DeltaLogProbe.latest(spark, name, path).lastTxnVersion(LoadRequest.txnAppId(name)));
    Catalogue catalogue = new Catalogue(spark, layout, t.item());
    catalogue.ensureTables();
    LoadTrace.mark("ensureTables done");
    LoadBookkeeping books = new LoadBookkeeping(catalogue);
    String id = t.tableId().toString();
    List<LoadResult> results = new ArrayList<>();
    LoadBookkeeping.State state = books.state(id);
    LoadTrace.mark("state read");
    // Every Weaver commit carries its load sequence as the idempotent txn version, so a commit the
    // history does not know exists only when the log's last txn version is beyond the recorded
    // sequence (a 1-3 ms log read); only then search the Delta history for its receipt.
    long lastTxn = Ahead.join(lastTxnAhead);
    Optional<LoadRecovery.Unrecorded> unrecorded =
        lastTxn > state.sequence()
            ? LoadRecovery.find(spark, path, state.sequence())
            : Optional.empty();
    LoadTrace.mark("probe done");
    if (unrecorded.isPresent()) {
      LoadRecovery.Unrecorded u = unrecorded.get();
      // History may already hold the load (the stop came after history, before state): then
      // only the state is repaired, so the load id stays unique in history.
      if (historyOf(catalogue, id, u.receipt().loadId()).isEmpty()) {
        LoadResult recovered = recoveredResult(name, u, started);
        books.history(id, recovered, Instant.now());
        results.add(recovered);
      }
      state =
          new LoadBookkeeping.State(
              u.receipt().loadId(),
              Optional.of(u.receipt().loadTimestamp()),
              u.version(),
              u.receipt().bookmark().or(state::bookmark),
              u.receipt().sequence());
      books.state(id, state);
    }
    if (requestedLoadId.isPresent()) {
      List<Row> earlier = historyOf(catalogue, id, loadId);
      if (!earlier.isEmpty()) {
        results.add(retried(name, loadId, earlier.get(0), started, loadTs));
        return results;
      }
    }
    long sequence = state.sequence() + 1;
    LoadResult result;
    StagingProvider.Staging staged = null;
    LoadOutcome committed = null;
    try {
      StagingProvider provider = staging.orElse(providers.get(t.source().form()));
      if (provider == null) {
        result =
            LoadResult.without(
                loadId,
                name,
                LoadResult.SKIPPED,
                -1,
                unavailable
                    .getOrDefault(
                        t.source().form(),
                        table -> "no staging provider for " + table.source().form() + " Tables")
                    .apply(t),
                started,
                loadTs);
        books.history(id, result, Instant.now());
        results.add(result);
        return results;
      }
      StagingProvider.Context context =
          new StagingProvider.Context(
              loadTs, state.lastSucceededAt().orElse(SqlStaging.NO_EARLIER_LOAD), state.bookmark());
      staged = provider.stage(t, context);
      LoadTrace.mark("staged");
      CommitReceipt receipt =
          new CommitReceipt(loadId, sequence, loadTs, staged.newBookmark().or(state::bookmark));
      LoadRequest request =
          new LoadRequest(
              Ahead.join(specAhead),
              staged.staging(),
              staged.deleteKeys(),
              loadTs,
              loadId,
              sequence,
              waiveGates,
              receipt.toJson(),
              previousChangedNothing(path, state));
      LoadOutcome outcome = LoadEngine.apply(spark, request);
      LoadTrace.mark("engine done");
      if (outcome.committed()) {
        committed = outcome;
        LoadFaults.reach(LoadFaults.Phase.AFTER_COMMIT);
      }
      long changes =
          outcome.rowsInserted()
              + outcome.rowsUpdated()
              + outcome.rowsDeleted()
              + outcome.rowsRevived();
      if (outcome.status().equals(LoadOutcome.SUCCEEDED) && !outcome.committed() && changes > 0) {
        outcome = conflict(outcome, name, sequence);
      } else if (outcome.status().equals(LoadOutcome.FAILED) && isConflict(outcome.message())) {
        // Only a commit of this Table's txn app id is "another load"; OPTIMIZE, a direct write
        // or a schema change conflict too, and the message must not blame a load.
        outcome =
            anotherLoadCommitted(path, name, request.txnAppId(), sequence)
                ? conflict(outcome, name, sequence)
                : otherWriter(outcome, name);
      }
      outcome.rejections().ifPresent(r -> writeRejections(catalogue, r, loadId, id));
      result = LoadResult.of(loadId, name, outcome, waiveGates, started, loadTs);
      if (outcome.status().equals(LoadOutcome.SUCCEEDED)
          || outcome.status().equals(LoadOutcome.NO_WORK)) {
        LoadFaults.fail(LoadFaults.Phase.DURING_HISTORY);
        books.history(id, result, Instant.now());
        LoadTrace.mark("history written");
        LoadFaults.reach(LoadFaults.Phase.AFTER_HISTORY);
        books.state(
            id,
            new LoadBookkeeping.State(
                loadId,
                Optional.of(loadTs),
                outcome.deltaVersion(),
                staged.newBookmark().or(state::bookmark),
                outcome.committed() ? sequence : state.sequence()));
        LoadTrace.mark("state written");
      } else {
        books.history(id, result, Instant.now());
      }
    } catch (LoadFaults.InjectedFault e) {
      throw e;
    } catch (Exception e) {
      if (committed != null) {
        // The data is in: a "failed" row would lie. Report the load with a warning; the next load
        // finds its receipt and records it as recovered (or repairs the state only).
        results.add(bookkeepingFailed(loadId, name, committed, e, waiveGates, started, loadTs));
        return results;
      }
      result =
          LoadResult.without(
              loadId,
              name,
              LoadOutcome.FAILED,
              currentVersion(path),
              failureMessage(name, e),
              started,
              loadTs);
      books.history(id, result, Instant.now());
    }
    results.add(result);
    return results;
  }

  /**
   * Whether the Table's previous load committed nothing (it found no changes): its state names a
   * load whose id is not the receipt of the commit at the state's Delta version. A load after such
   * a load checks for "no change at all" first (docs/performance.md). Unknown (no previous load,
   * log file gone): false.
   */
  private boolean previousChangedNothing(String path, LoadBookkeeping.State state) {
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

  private StagingProvider.Staging sqlStaging(TableDeclaration t, StagingProvider.Context context) {
    SqlStaging.Staged staged =
        SqlStaging.forLoad(
            spark,
            t,
            SqlProgram.of((TableBody.Sql) t.body()),
            context.loadTimestamp(),
            context.lastLoadTimestamp());
    return new StagingProvider.Staging(staged.staging(), staged.deleteKeys(), Optional.empty());
  }

  /** The engine's view of a built Table: business columns as they are in Delta. */
  private LoadSpec spec(TableDeclaration t, String path) {
    StructType physical = DeltaTable.forPath(spark, path).toDF().schema();
    List<StructField> business = new ArrayList<>();
    for (StructField f : physical.fields()) {
      boolean managed = ManagedColumns.names(Target.LAKEHOUSE).contains(f.name());
      boolean identity = t.identity().map(f.name()::equals).orElse(false);
      if (!managed && !identity) {
        business.add(f);
      }
    }
    StructType businessSchema = new StructType(business.toArray(StructField[]::new));
    List<String> pk = t.primaryKey().map(ColumnSet::columns).orElse(List.of());
    List<String> comparison =
        t.comparisonColumns()
            .map(ColumnSet::columns)
            .orElseGet(
                () ->
                    business.stream().map(StructField::name).filter(c -> !pk.contains(c)).toList());
    return new LoadSpec(
        t.qualifiedName(),
        path,
        businessSchema,
        pk,
        t.uniqueKeys().stream().map(ColumnSet::columns).toList(),
        t.notNull(),
        pk.isEmpty() ? List.of() : comparison,
        t.identity(),
        t.incremental(),
        t.deletePercentageThreshold(),
        t.updatePercentageThreshold(),
        t.stabilityRowThreshold());
  }

  private static LoadOutcome conflict(LoadOutcome o, String name, long sequence) {
    return new LoadOutcome(
        LoadOutcome.FAILED,
        0,
        0,
        0,
        0,
        0,
        0,
        o.targetLiveRowsBefore(),
        o.targetLiveRowsBefore(),
        o.deltaVersion(),
        false,
        name
            + ": another load of this table committed load sequence "
            + sequence
            + " first, so this one was not applied;"
            + " run the load again (it will start from the new state)",
        o.warnings(),
        Optional.empty());
  }

  private boolean anotherLoadCommitted(String path, String name, String appId, long sequence) {
    try {
      return DeltaLogProbe.latest(spark, name, path).lastTxnVersion(appId) >= sequence;
    } catch (RuntimeException e) {
      return true; // cannot tell: keep the original wording
    }
  }

  private static LoadOutcome otherWriter(LoadOutcome o, String name) {
    return LoadOutcome.withoutChanges(
        LoadOutcome.FAILED,
        o.targetLiveRowsBefore(),
        o.deltaVersion(),
        name
            + ": another operation (OPTIMIZE, a direct write or a schema change) committed to the"
            + " table while this load ran, so nothing was applied; run the load again ("
            + firstLine(o.message())
            + ")",
        o.warnings());
  }

  /** Delta's words for a concurrent commit that won (same txn app id, or overlapping files). */
  private static boolean isConflict(String message) {
    return message != null
        && (message.contains("DELTA_CONCURRENT")
            || message.contains("ConcurrentTransaction")
            || message.contains("ConcurrentAppend")
            || message.contains("ConcurrentDelete"));
  }

  private static List<Row> historyOf(Catalogue catalogue, String tableId, String loadId) {
    return catalogue
        .readFor(CatalogueTable.LOAD_HISTORY, "table_id", tableId)
        .where(functions.col("load_id").equalTo(loadId))
        .select("status", "delta_version")
        .collectAsList();
  }

  /** The report of a retried load id that is already in history: nothing is done again. */
  private static LoadResult retried(
      String name, String loadId, Row earlier, Instant started, Instant loadTs) {
    String status = earlier.getString(0);
    long version = earlier.isNullAt(1) ? -1 : earlier.getLong(1);
    if (status.equals(LoadOutcome.SUCCEEDED)
        || status.equals(LoadResult.RECOVERED)
        || status.equals(LoadOutcome.NO_WORK)) {
      return LoadResult.without(
          loadId,
          name,
          status.equals(LoadOutcome.NO_WORK) ? LoadOutcome.NO_WORK : LoadOutcome.SUCCEEDED,
          version,
          name
              + ": load "
              + loadId
              + " was already applied (history: "
              + status
              + ", Delta version "
              + version
              + "); this retry wrote nothing",
          started,
          loadTs);
    }
    return LoadResult.without(
        loadId,
        name,
        LoadOutcome.FAILED,
        version,
        name
            + ": load id "
            + loadId
            + " was already used by a load that ended "
            + status
            + " (nothing was applied then or now); a load id names one attempt, so run the load"
            + " again with a new load id or none",
        started,
        loadTs);
  }

  private static LoadResult bookkeepingFailed(
      String loadId,
      String name,
      LoadOutcome committed,
      Exception e,
      boolean waiveGates,
      Instant started,
      Instant loadTs) {
    List<String> warnings = new ArrayList<>(committed.warnings());
    warnings.add(
        name
            + ": load "
            + loadId
            + " committed Delta version "
            + committed.deltaVersion()
            + " but its history or state could not be written ("
            + firstLine(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
            + "); the next load records it as recovered, nothing is applied twice");
    LoadOutcome o =
        new LoadOutcome(
            committed.status(),
            committed.rowsInserted(),
            committed.rowsUpdated(),
            committed.rowsDeleted(),
            committed.rowsRevived(),
            committed.rowsUnchanged(),
            committed.rowsRejected(),
            committed.targetLiveRowsBefore(),
            committed.targetLiveRowsAfter(),
            committed.deltaVersion(),
            true,
            committed.message(),
            warnings,
            Optional.empty());
    return LoadResult.of(loadId, name, o, waiveGates, started, loadTs);
  }

  private static void requireValidLoadId(String loadId) {
    if (loadId == null || !loadId.matches("[A-Za-z0-9._:-]{1,100}")) {
      throw new IllegalArgumentException(
          "load id '"
              + loadId
              + "' is not valid: use 1 to 100 letters, digits, '.', '_', ':' or '-'");
    }
  }

  private static LoadResult recoveredResult(String name, LoadRecovery.Unrecorded u, Instant now) {
    Map<String, String> m = u.metrics();
    return new LoadResult(
        u.receipt().loadId(),
        name,
        LoadResult.RECOVERED,
        metric(m, "numTargetRowsInserted"),
        metric(m, "numTargetRowsUpdated"),
        0,
        0,
        0,
        0,
        -1,
        -1,
        u.version(),
        false,
        0,
        "load "
            + u.receipt().loadId()
            + " committed Delta version "
            + u.version()
            + " but its history was not written (the process stopped); recorded from the commit receipt, not applied again",
        List.of(),
        now,
        u.receipt().loadTimestamp());
  }

  private static long metric(Map<String, String> metrics, String name) {
    try {
      return Long.parseLong(metrics.getOrDefault(name, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private void writeRejections(
      Catalogue catalogue,
      org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> rejections,
      String loadId,
      String id) {
    rejections
        .select(
            functions.lit(loadId).alias("load_id"),
            functions.lit(id).alias("table_id"),
            functions.col("reason"),
            functions.col("key_json"),
            functions.col("row_json"))
        .write()
        .format("delta")
        .mode("append")
        .save(catalogue.path(CatalogueTable.LOAD_REJECTION));
  }

  private long currentVersion(String path) {
    try {
      return DeltaTable.forPath(spark, path).history(1).first().getLong(0);
    } catch (RuntimeException e) {
      return -1;
    }
  }

  private static String failureMessage(String name, Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().strip();
    if (e instanceof LoadFailure) {
      return message;
    }
    String lower = message.toLowerCase(java.util.Locale.ROOT);
    if (isConflict(message) || lower.contains("concurrent")) {
      return name
          + ": another operation changed the table while this load ran ("
          + firstLine(message)
          + "); nothing was applied, run the load again";
    }
    return name + ": " + firstLine(message);
  }

  private static String firstLine(String message) {
    return message.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse(message);
  }

  static String newLoadId(Instant at) {
    byte[] random = new byte[4];
    ThreadLocalRandom.current().nextBytes(random);
    return ID_TIME.format(at) + "-" + HexFormat.of().formatHex(random);
  }
}
