package io.weaver.load;

import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.publish.ItemPublishSteps;
import io.weaver.load.publish.ItemPublisher;
import io.weaver.load.records.LoadBookkeeping;
import io.weaver.load.records.LoadRecorder;
import io.weaver.load.records.LoadResult;
import io.weaver.load.records.QuietLoadRecords;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.DependencyWalk;
import io.weaver.metadata.SqlProgram;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.session.SideBySide;
import io.weaver.session.WeaverConf;
import io.weaver.staging.SqlStaging;
import io.weaver.workspace.Form;
import io.weaver.workspace.Target;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs loads (docs/table-contract.md, "Load"): Tables in dependency order, each as one {@link
 * LoadAttempt} (precheck, recover, stage, diff, gate, apply, record); a failed, refused or skipped
 * Table skips its dependants, not unrelated Tables ({@link DependencyWalk}). Holds how each form of
 * Table is staged.
 */
public final class LoadRunner {
  private static final Logger LOG = LoggerFactory.getLogger(LoadRunner.class);

  private final SparkSession spark;
  private final WorkspaceModel model;
  private final LakehouseLayout layout;
  private final Consumer<String> progress;
  private final Map<Form, StagingProvider> providers = new HashMap<>();
  private final Map<Form, Function<TableDeclaration, String>> unavailable = new HashMap<>();
  private Optional<WarehouseLoad> warehouse = Optional.empty();
  private Predicate<String> publishesTogether;
  private int threads = 1;

  public LoadRunner(
      SparkSession spark, WorkspaceModel model, LakehouseLayout layout, Consumer<String> progress) {
    this.spark = spark;
    this.model = model;
    this.layout = layout;
    // Tables that load side by side report from their own threads: one line at a time.
    this.progress =
        line -> {
          synchronized (this) {
            progress.accept(line);
          }
        };
    providers.put(Form.SPARK_SQL, this::sqlStaging);
    this.publishesTogether = item -> WeaverConf.of(spark).publishesTogether(item);
  }

  /**
   * Says which items publish together ({@code spark.weaver.item.<Item>.publish}; by default the
   * session conf's, without {@code weaver.yaml}).
   */
  public LoadRunner withPublish(Predicate<String> together) {
    this.publishesTogether = together;
    return this;
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

  /**
   * Loads every selected Table: side by side when {@link #withThreads} allows more than one, each
   * Table once everything it depends on has ended; the results in dependency order.
   */
  public List<LoadResult> load(Predicate<TableDeclaration> selected, boolean waiveGates) {
    LoadRun run = new LoadRun(walk(selected), true);
    List<TableDeclaration> tables = run.tables();
    publishing().beforeLoad(tables);
    QuietLoadRecords quiet = new QuietLoadRecords(tables.size() > 1);
    // A test's fault points reach the loads it starts, on whichever thread they run.
    FaultPoints points = FaultPoints.installed();
    new SideBySide<TableDeclaration>(spark, threads, run::dependencies)
        .run(
            tables,
            t -> {
              FaultPoints before = FaultPoints.installed();
              FaultPoints.install(points);
              try {
                run.ended(
                    t,
                    run.skipped(t)
                        .map(List::of)
                        .orElseGet(
                            () ->
                                loadTable(
                                    t, waiveGates, Optional.empty(), Optional.empty(), quiet)));
              } finally {
                FaultPoints.install(before);
              }
            },
            (t, ordinal, inFlight) ->
                progress.accept(startedLine("load", t, ordinal, tables.size(), inFlight)));
    if (!quiet.isEmpty()) {
      progress.accept("history and state of the loads");
    }
    for (String failure : quiet.write()) {
      LOG.warn(failure);
      progress.accept(failure);
    }
    return publishing().afterLoad(run.reportedTables(), run.results());
  }

  /**
   * The progress line of a Table that starts: {@code load 3/12 L.P.E}, and, when others run beside
   * it, how many are in flight.
   */
  static String startedLine(
      String work, TableDeclaration t, int ordinal, int total, List<TableDeclaration> inFlight) {
    String line = work + " " + ordinal + "/" + total + " " + t.qualifiedName();
    return inFlight.size() < 2 ? line : line + " (" + inFlight.size() + " in flight)";
  }

  /**
   * How many Tables a load runs at once (at least 1; 1 loads them one after another, in dependency
   * order).
   */
  public LoadRunner withThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    this.threads = threads;
    return this;
  }

  private DependencyWalk<LoadResult> walk(Predicate<TableDeclaration> selected) {
    return DependencyWalk.of(model, selected, LoadResult::stopsDependants);
  }

  /**
   * A load run of every selected Table (dependency order) that a client takes one Table per
   * statement ({@link #loadInRun}) and ends with {@link #finish}: how a client that runs some
   * Tables itself loads several. Opening it writes nothing.
   *
   * @param publishesItems whether its end publishes its items (a load of whole items), or leaves
   *     them to their next publish (a load of one Table)
   */
  public LoadRun open(Predicate<TableDeclaration> selected, boolean publishesItems) {
    return new LoadRun(walk(selected), publishesItems);
  }

  /**
   * Loads {@code t} as a step of {@code run} and records its result there: {@code skipped} when a
   * dependency of the run stopped; else, from {@code staging} (a client's staging of a Python
   * Table, for {@code loadTimestamp}, the load timestamp its {@code read()} saw), as {@link
   * #loadOne} loads it; without staging, from its body, as a load of the one Table does. The rows
   * say what waits for the item's publish until {@link #finish} decides it.
   *
   * @throws IllegalArgumentException when {@code t} is not one of the run's Tables
   */
  public List<LoadResult> loadInRun(
      LoadRun run,
      TableDeclaration t,
      boolean waiveGates,
      Optional<StagingProvider> staging,
      Optional<Instant> loadTimestamp) {
    run.table(t.qualifiedName());
    Optional<LoadResult> skipped = run.skipped(t);
    if (skipped.isPresent()) {
      run.ended(t, List.of(skipped.get()));
      return List.of(skipped.get());
    }
    ItemPublishSteps publishing = publishing();
    publishing.beforeLoad(List.of(t));
    List<LoadResult> loaded;
    List<LoadResult> reported;
    if (staging.isPresent()) {
      loaded = loadTable(t, waiveGates, staging, loadTimestamp, null);
      reported = publishing.afterLoadOfOne(t, loaded);
    } else {
      QuietLoadRecords quiet = new QuietLoadRecords(false);
      loaded = loadTable(t, waiveGates, Optional.empty(), Optional.empty(), quiet);
      for (String failure : quiet.write()) {
        LOG.warn(failure);
        progress.accept(failure);
      }
      reported = publishing.afterLoad(List.of(t), loaded);
    }
    run.ended(t, loaded, reported);
    return reported;
  }

  /**
   * Ends {@code run}. A run of whole items publishes each item none of whose Tables stopped, as
   * {@link #publishItem} does, and returns those items' rows as their loads ended; every other row
   * is returned as its statement reported it (what waits for the item's next publish). In run
   * order.
   */
  public List<LoadResult> finish(LoadRun run) {
    if (!run.publishesItems()) {
      return run.rows(item -> false);
    }
    List<LoadResult> results = run.results();
    Set<String> published = new HashSet<>();
    for (String item : run.tables().stream().map(TableDeclaration::item).distinct().toList()) {
      if (results.stream()
          .noneMatch(r -> r.tableId().startsWith(item + ".") && r.stopsDependants())) {
        progress.accept(publishItem(item).describe());
        published.add(item);
      }
    }
    return run.rows(published::contains);
  }

  /**
   * Publishes {@code item} now (PUBLISH WEAVER ITEM): of an item that publishes together, every
   * Table at its latest version; of one that does not, an old publish's pins lifted.
   */
  public ItemPublisher.Outcome publishItem(String item) {
    ItemPublisher publisher = publisher();
    if (!publishesTogether.test(item)) {
      return publisher
          .unpin(item)
          .orElseGet(() -> new ItemPublisher.Outcome(item, publisher.latest(item), false));
    }
    return publisher.publish(item, ItemPublishManifest.KIND_PUBLISH);
  }

  /** One Table's load within a run: a Warehouse Table through its endpoint when it has one. */
  private List<LoadResult> loadTable(
      TableDeclaration t,
      boolean waiveGates,
      Optional<StagingProvider> staging,
      Optional<Instant> loadTimestamp,
      QuietLoadRecords quiet) {
    if (t.target() == Target.WAREHOUSE) {
      Optional<LoadResult> inWarehouse = loadInWarehouse(t, waiveGates, Optional.empty());
      if (inWarehouse.isPresent()) {
        return List.of(inWarehouse.get());
      }
      quiet = null;
    }
    return attempt(t, waiveGates, staging, Optional.empty(), loadTimestamp, quiet).run();
  }

  /** The item publish around this thread's loads (docs/table-contract.md, "Item publish"). */
  private ItemPublishSteps publishing() {
    return new ItemPublishSteps(model, publishesTogether, publisher(), progress);
  }

  /** The publisher of this runner's items, with this thread's fault points. */
  public ItemPublisher publisher() {
    return new ItemPublisher(spark, layout, model, FaultPoints.installed());
  }

  /**
   * What {@link #load} would do with every selected Table, in the same order, writing nothing
   * (docs/plan.md). A Table whose dependency's load would stop is planned as skipped, as the load
   * would skip it; one whose dependency's load would change rows is planned against that
   * dependency's current rows, and its plan says so (a chain is not predicted).
   */
  public List<LoadPlan> plan(Predicate<TableDeclaration> selected, boolean waiveGates) {
    return plan(selected, waiveGates, t -> Optional.empty());
  }

  /**
   * {@link #plan(Predicate, boolean)}, where {@code afterBuild} names the Tables whose load can
   * only be planned once Build has run (it would create or reshape them), with the reason: their
   * plans are {@code skipped} with it, and their dependants are planned against current rows.
   */
  public List<LoadPlan> plan(
      Predicate<TableDeclaration> selected,
      boolean waiveGates,
      Function<String, Optional<String>> afterBuild) {
    // A Table whose load can only be planned after Build is no stop: after Build, the load runs.
    Set<String> buildFirst = new HashSet<>();
    DependencyWalk<LoadPlan> walk =
        DependencyWalk.of(
            model,
            selected,
            d -> d.status().stopsDependants() && !buildFirst.contains(d.tableId()));
    List<TableDeclaration> tables = walk.tables();
    List<LoadPlan> plans = new ArrayList<>();
    int done = 0;
    for (TableDeclaration t : tables) {
      progress.accept("plan load " + (++done) + "/" + tables.size() + " " + t.qualifiedName());
      List<LoadPlan> deps = walk.dependencyResults(t);
      Optional<LoadPlan> stopping = walk.stoppedBy(t).map(DependencyWalk.Stopped::result);
      LoadPlan planned;
      Optional<String> notYet = afterBuild.apply(t.qualifiedName());
      if (notYet.isPresent()) {
        // Not a stop: after Build, the load runs. Its dependants are planned against current rows.
        planned =
            LoadPlan.without(t.qualifiedName(), LoadStatus.SKIPPED, -1, notYet.get(), List.of());
        buildFirst.add(t.qualifiedName());
        plans.add(planned);
        walk.ended(t, planned);
        continue;
      }
      if (stopping.isPresent()) {
        planned =
            LoadPlan.without(
                t.qualifiedName(),
                LoadStatus.SKIPPED,
                -1,
                "a load would skip it: dependency "
                    + stopping.get().tableId()
                    + " would be "
                    + stopping.get().status(),
                List.of());
      } else {
        planned =
            attempt(t, waiveGates, Optional.empty(), Optional.empty(), Optional.empty()).plan();
        for (LoadPlan dep : deps) {
          if (buildFirst.contains(dep.tableId())) {
            planned =
                planned.withNote(
                    "planned against the current rows of "
                        + dep.tableId()
                        + ", which Build changes before its load");
          } else if (dep.changesRows()) {
            planned =
                planned.withNote(
                    "planned against the current rows of "
                        + dep.tableId()
                        + ", whose load would change "
                        + dep.counts().changed()
                        + " rows first");
          }
        }
      }
      plans.add(planned);
      walk.ended(t, planned);
    }
    return plans;
  }

  /**
   * What a load of one Table would do, writing nothing; {@code staging} overrides its body as in
   * {@link #loadOne(TableDeclaration, boolean, Optional)}.
   */
  public LoadPlan planOne(
      TableDeclaration t, boolean waiveGates, Optional<StagingProvider> staging) {
    if (t.target() == Target.WAREHOUSE && warehouse.map(w -> w.configured(t)).orElse(false)) {
      return LoadPlan.without(
          t.qualifiedName(),
          LoadStatus.SKIPPED,
          -1,
          "plan does not predict Warehouse loads yet; its endpoint is configured, so load runs it",
          List.of());
    }
    return attempt(t, waiveGates, staging, Optional.empty(), Optional.empty()).plan();
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
    return loadOne(t, waiveGates, staging, requestedLoadId, Optional.empty());
  }

  /**
   * Loads one Table whose staging was produced before the load started, for the load timestamp
   * {@code loadTimestamp} that its body saw (a Spark Connect client runs a Python Table's {@code
   * read()} itself, then hands the staging over): the audit columns, the receipt and the next
   * load's {@code last_load_timestamp} carry that timestamp. The staging provider checks that the
   * context it was staged under is still the current one.
   */
  public List<LoadResult> loadOne(
      TableDeclaration t,
      boolean waiveGates,
      Optional<StagingProvider> staging,
      Optional<String> requestedLoadId,
      Optional<Instant> loadTimestamp) {
    requestedLoadId.ifPresent(LoadRunner::requireValidLoadId);
    if (t.target() == Target.WAREHOUSE) {
      Optional<LoadResult> inWarehouse = loadInWarehouse(t, waiveGates, requestedLoadId);
      if (inWarehouse.isPresent()) {
        return List.of(inWarehouse.get());
      }
    }
    ItemPublishSteps publishing = publishing();
    publishing.beforeLoad(List.of(t));
    return publishing.afterLoadOfOne(
        t, attempt(t, waiveGates, staging, requestedLoadId, loadTimestamp).run());
  }

  /** Loads Warehouse Tables through {@code warehouse} (their item's endpoint). */
  public LoadRunner withWarehouse(WarehouseLoad warehouse) {
    this.warehouse = Optional.of(warehouse);
    return this;
  }

  /** Empty without an endpoint: the attempt then reports the Table skipped, naming the setting. */
  private Optional<LoadResult> loadInWarehouse(
      TableDeclaration t, boolean waiveGates, Optional<String> requestedLoadId) {
    return warehouse.flatMap(w -> w.load(t, waiveGates, requestedLoadId));
  }

  private LoadAttempt attempt(
      TableDeclaration t,
      boolean waiveGates,
      Optional<StagingProvider> staging,
      Optional<String> requestedLoadId,
      Optional<Instant> loadTimestamp) {
    return attempt(t, waiveGates, staging, requestedLoadId, loadTimestamp, null);
  }

  /** An attempt whose records, if it finds nothing to write, wait in {@code quiet} (or null). */
  private LoadAttempt attempt(
      TableDeclaration t,
      boolean waiveGates,
      Optional<StagingProvider> staging,
      Optional<String> requestedLoadId,
      Optional<Instant> loadTimestamp,
      QuietLoadRecords quiet) {
    Optional<StagingProvider> provider =
        staging.or(() -> Optional.ofNullable(providers.get(t.source().form())));
    String unavailableBecause =
        unavailable
            .getOrDefault(
                t.source().form(),
                table -> "no staging provider for " + table.source().form() + " Tables")
            .apply(t);
    return new LoadAttempt(
        spark,
        layout,
        t,
        waiveGates,
        provider,
        unavailableBecause,
        requestedLoadId,
        loadTimestamp,
        FaultPoints.installed(),
        Optional.ofNullable(quiet));
  }

  /**
   * The context a load of {@code t} starting now would hand its body (a fresh load timestamp, the
   * last succeeded load's timestamp and the committed bookmark), as read from {@code _.LoadState}
   * before any recovery; empty when the load could not stage at all (a Warehouse Table, no load
   * procedure, not built), which a load then reports without staging.
   */
  public Optional<StagingProvider.Context> nextContext(TableDeclaration t) {
    String path = layout.tablePath(t.item(), t.tableId());
    if (LoadPreconditions.unmet(spark, t, path).isPresent()) {
      return Optional.empty();
    }
    Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    LoadBookkeeping.State state =
        new LoadRecorder(
                new io.weaver.catalogue.Catalogue(spark, layout, t.item()),
                t.tableId().toString(),
                FaultPoints.installed(),
                Optional.empty())
            .state();
    return Optional.of(
        new StagingProvider.Context(
            now, state.lastSucceededAt().orElse(SqlStaging.NO_EARLIER_LOAD), state.bookmark()));
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

  private static void requireValidLoadId(String loadId) {
    if (loadId == null || !loadId.matches("[A-Za-z0-9._:-]{1,100}")) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "load id '"
              + loadId
              + "' is not valid: use 1 to 100 letters, digits, '.', '_', ':' or '-'");
    }
  }
}
