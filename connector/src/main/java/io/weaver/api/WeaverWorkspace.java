package io.weaver.api;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.check.Check;
import io.weaver.check.CheckReport;
import io.weaver.datatest.DataTestResult;
import io.weaver.datatest.DataTestRunner;
import io.weaver.datatest.LastTestRuns;
import io.weaver.install.BuildOutcome;
import io.weaver.install.BuildRunner;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.LoadPlan;
import io.weaver.load.LoadRun;
import io.weaver.load.LoadRunner;
import io.weaver.load.StagingProvider;
import io.weaver.load.publish.ItemPublisher;
import io.weaver.load.records.LoadResult;
import io.weaver.load.restore.ItemRestore;
import io.weaver.load.restore.LoadRestore;
import io.weaver.metadata.DataTestDeclaration;
import io.weaver.metadata.DependencyPlan;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.plan.TablePlan;
import io.weaver.plan.WorkspacePlanner;
import io.weaver.python.PythonBridge;
import io.weaver.session.WeaverConf;
import io.weaver.warehouse.WarehouseTarget;
import io.weaver.workspace.Form;
import io.weaver.workspace.Target;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Java API over one workspace and one lakehouse, used by the CLI, the SQL statements and the
 * Python bindings alike: there is one engine.
 */
public final class WeaverWorkspace {
  private static final Logger LOG = LoggerFactory.getLogger(WeaverWorkspace.class);

  private final SparkSession spark;
  private final Path root;
  private final LakehouseLayout layout;
  private final Consumer<String> progress;
  private final Map<Form, StagingProvider> providers;
  private final Supplier<WorkspaceModel> models;

  public WeaverWorkspace(
      SparkSession spark, Path root, String lakehouseRoot, Consumer<String> progress) {
    this.spark = spark;
    this.root = root.toAbsolutePath().normalize();
    this.layout = LakehouseLayout.at(lakehouseRoot);
    this.progress = progress;
    this.providers = new EnumMap<>(Form.class);
    this.models = this::checkedModel;
  }

  private WeaverWorkspace(WeaverWorkspace of, Supplier<WorkspaceModel> models) {
    this.spark = of.spark;
    this.root = of.root;
    this.layout = of.layout;
    this.progress = of.progress;
    this.providers = of.providers;
    this.models = models;
  }

  /**
   * This workspace for one statement or command: the files are scanned and checked once, on the
   * first call that needs the model, and every later call reuses that checked model. The API object
   * itself re-reads the files on every call, because a long-lived one (the Python {@code
   * Workspace}, a test fixture) sees declarations change between calls; a statement must not pay
   * for a second scan, nor see the workspace change half-way through. Staging providers are shared
   * with this object.
   */
  public WeaverWorkspace checkingOnce() {
    return new WeaverWorkspace(this, new OnceChecked(this::checkedModel));
  }

  /**
   * This workspace for a caller that has already checked the files and holds the model (the CLI
   * checks before Spark starts): every call uses {@code model}, nothing is scanned again.
   */
  public WeaverWorkspace checkedAs(WorkspaceModel model) {
    return new WeaverWorkspace(this, () -> model);
  }

  public Path root() {
    return root;
  }

  public LakehouseLayout layout() {
    return layout;
  }

  public SparkSession spark() {
    return spark;
  }

  public CheckReport check() {
    return Check.run(root);
  }

  /** The checked model; throws {@code WeaverCheckException} when Check finds errors. */
  public WorkspaceModel model() {
    return models.get();
  }

  /** Scans and checks the workspace files: the one place a model is made. */
  private WorkspaceModel checkedModel() {
    LOG.debug("scanning and checking the workspace {}", root);
    return Check.analyze(root).validModel();
  }

  /** The first checked model, kept; a Check that found errors is not kept and runs again. */
  private static final class OnceChecked implements Supplier<WorkspaceModel> {
    private final Supplier<WorkspaceModel> check;
    private WorkspaceModel model;

    OnceChecked(Supplier<WorkspaceModel> check) {
      this.check = check;
    }

    @Override
    public synchronized WorkspaceModel get() {
      if (model == null) {
        model = check.get();
      }
      return model;
    }
  }

  /** Builds the Tables in scope (dependency order), then their catalogue rows. */
  public List<BuildOutcome> build(Scope scope, boolean allowDestructive) {
    WorkspaceModel model = model();
    requireMatch(model, scope);
    return builder(model).run(scope.filter(), allowDestructive);
  }

  /**
   * What a run of the Tables in scope would do (docs/plan.md): Build's action and each load's
   * predicted counts, gates and rejections, in load order. Writes nothing: no Delta version, no
   * catalogue row, no load state or bookmark.
   */
  public List<TablePlan> plan(Scope scope, boolean allowDestructive, boolean waiveGates) {
    WorkspaceModel model = model();
    requireMatch(model, scope);
    return new WorkspacePlanner(builder(model), runner(model))
        .plan(scope.filter(), allowDestructive, waiveGates);
  }

  /** Loads the Tables in scope in dependency order; dependants of a failed Table are skipped. */
  public List<LoadResult> load(Scope scope, boolean waiveGates) {
    WorkspaceModel model = model();
    requireMatch(model, scope);
    return runner(model).load(scope.filter(), waiveGates);
  }

  /** Loads one Table from the given staging (a DataFrame write, a Python read()). */
  public List<LoadResult> loadWith(String identity, boolean waiveGates, StagingProvider staging) {
    WorkspaceModel model = model();
    TableDeclaration table = oneTable(model, Scope.table(identity));
    return runner(model).loadOne(table, waiveGates, Optional.of(staging));
  }

  /** What a load of one Table from the given staging would do, writing nothing (docs/plan.md). */
  public LoadPlan planWith(String identity, boolean waiveGates, StagingProvider staging) {
    WorkspaceModel model = model();
    TableDeclaration table = oneTable(model, Scope.table(identity));
    return runner(model).planOne(table, waiveGates, Optional.of(staging));
  }

  /**
   * Loads one Table from the given staging under a caller-chosen load id. Retrying a load id that
   * is already in the Table's history writes nothing and reports that it was already applied.
   */
  public List<LoadResult> loadWith(
      String identity, boolean waiveGates, StagingProvider staging, String loadId) {
    WorkspaceModel model = model();
    TableDeclaration table = oneTable(model, Scope.table(identity));
    return runner(model)
        .loadOne(table, waiveGates, Optional.of(staging), Optional.ofNullable(loadId));
  }

  /** One Table of a load in load order, with the workspace Tables it waits for. */
  public record PlannedLoad(TableDeclaration table, List<String> dependsOn) {}

  /**
   * The Tables in scope in the order {@link #load} loads them, each with the item-qualified names
   * of the workspace Tables it depends on: a load of several Tables skips a Table when one of these
   * failed, was refused or was skipped (a client that loads Table by Table applies the same rule).
   */
  public List<PlannedLoad> loadPlan(Scope scope) {
    WorkspaceModel model = model();
    requireMatch(model, scope);
    DependencyPlan plan = DependencyPlan.resolve(model);
    return plan.order().stream()
        .filter(scope.filter())
        .map(
            t ->
                new PlannedLoad(
                    t,
                    plan.edgesOf(t).stream()
                        .filter(e -> e.dependsOnItem() != null)
                        .map(e -> e.dependsOnItem() + "." + e.dependsOnTableId())
                        .distinct()
                        .toList()))
        .toList();
  }

  /**
   * The one Table {@code scope} names.
   *
   * @throws IllegalArgumentException when the workspace has no such Table
   */
  public TableDeclaration table(Scope scope) {
    return oneTable(model(), scope);
  }

  /**
   * The first Table of {@code model} in {@code scope}: the Table a one-Table scope names.
   *
   * @throws IllegalArgumentException when the workspace has no Table in scope
   */
  private static TableDeclaration oneTable(WorkspaceModel model, Scope scope) {
    requireMatch(model, scope);
    return model.tables().stream().filter(scope.filter()).findFirst().orElseThrow();
  }

  /**
   * The context a load of {@code table} starting now would hand its body, for a client that runs a
   * Python Table's {@code read()} itself (Spark Connect); empty when the load could not stage (not
   * built, no load procedure, a Warehouse Table): a load then says why.
   */
  public Optional<StagingProvider.Context> nextContext(TableDeclaration table) {
    return runner(model()).nextContext(table);
  }

  /**
   * Loads one Python Table from what a client's {@code read()} produced (docs/table-contract.md,
   * "SQL statements": {@code LOAD WEAVER TABLE … FROM VIEW}), through the engine path of a Python
   * read: the staging enters as the Table's staging provider.
   *
   * @throws IllegalArgumentException for an unknown Table or one that is not a Python Table
   */
  public List<LoadResult> loadFromClient(Scope scope, boolean waiveGates, ClientStaging staging) {
    WorkspaceModel model = model();
    TableDeclaration table = pythonTable(model, scope);
    return runner(model)
        .loadOne(
            table, waiveGates, Optional.of(staging), Optional.empty(), staging.loadTimestamp());
  }

  /**
   * Opens a load run of the Tables in scope: the Tables and order of {@link #loadPlan}, loaded one
   * per {@link #loadInRun} call and ended by {@link #finish}. Writes nothing.
   */
  public LoadRun openLoadRun(Scope scope) {
    WorkspaceModel model = model();
    requireMatch(model, scope);
    return runner(model).open(scope.filter(), scope.table().isEmpty());
  }

  /**
   * Loads the one Table {@code scope} names as a step of {@code run}: {@code skipped} when a
   * dependency of the run stopped, else from its body (a Python Table's body runs only where a
   * Python runtime is attached; a client stages it with {@link #loadFromClientInRun}).
   *
   * @throws IllegalArgumentException for an unknown Table or one that is not in the run
   */
  public List<LoadResult> loadInRun(LoadRun run, Scope scope, boolean waiveGates) {
    WorkspaceModel model = model();
    TableDeclaration table = oneTable(model, scope);
    return runner(model).loadInRun(run, table, waiveGates, Optional.empty(), Optional.empty());
  }

  /**
   * {@link #loadFromClient} as a step of {@code run}: {@code skipped} (the staging unused) when a
   * dependency of the run stopped.
   *
   * @throws IllegalArgumentException for an unknown Table, one that is not a Python Table, or one
   *     that is not in the run
   */
  public List<LoadResult> loadFromClientInRun(
      LoadRun run, Scope scope, boolean waiveGates, ClientStaging staging) {
    WorkspaceModel model = model();
    TableDeclaration table = pythonTable(model, scope);
    return runner(model)
        .loadInRun(run, table, waiveGates, Optional.of(staging), staging.loadTimestamp());
  }

  /**
   * Ends {@code run} as a load of several Tables ends (items published or told why not) and returns
   * every row its Tables reported, in load order.
   */
  public List<LoadResult> finish(LoadRun run) {
    return runner(model()).finish(run);
  }

  private static TableDeclaration pythonTable(WorkspaceModel model, Scope scope) {
    TableDeclaration table = oneTable(model, scope);
    if (table.source().form() != Form.PYTHON) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_NOT_A_PYTHON_TABLE,
          table.qualifiedName()
              + " is a "
              + table.source().form().word()
              + " Table: only Python Tables load from a client's staging; load it from its own"
              + " body with LOAD WEAVER TABLE "
              + table.qualifiedName(),
          ErrorFacts.of(ErrorParameter.TABLE, table.qualifiedName()));
    }
    return table;
  }

  /**
   * Runs the tests in scope (docs/table-contract.md, "Test") against the live rows of built tables:
   * the generated tests of each Table in scope, then the authored tests of the items in scope (none
   * when the scope is one Table). Executes no Table body; a Table not built reports its tests as
   * failed. The results are recorded per Table under the lakehouse ({@link LastTestRuns}), where
   * the documentation site finds them.
   */
  public List<DataTestResult> test(Scope scope) {
    WorkspaceModel model = model();
    boolean authoredInScope =
        scope.table().isEmpty()
            && model.tests().stream()
                .anyMatch(t -> scope.item().map(i -> i.equals(t.item())).orElse(true));
    if (!authoredInScope) {
      requireMatch(model, scope);
    }
    Predicate<DataTestDeclaration> authored =
        t -> scope.table().isEmpty() && scope.item().map(i -> i.equals(t.item())).orElse(true);
    Instant runAt = Instant.now();
    List<DataTestResult> results =
        new DataTestRunner(spark, model, layout, progress).run(scope.filter(), authored);
    try {
      new LastTestRuns(spark, layout).record(model, scope.filter(), authored, results, runAt);
    } catch (UncheckedIOException e) {
      // The results are the answer; a lakehouse that cannot take the record does not change them.
      progress.accept("could not record the test results: " + e.getMessage());
    }
    return results;
  }

  /** The build runner over a checked model, Warehouse Tables through their endpoints. */
  private BuildRunner builder(WorkspaceModel model) {
    return new BuildRunner(spark, model, layout, progress).withWarehouse(warehouse(model));
  }

  /**
   * The Warehouse target: endpoints from the session conf, then the workspace's weaver.yaml;
   * credentials from the environment variables those settings name.
   */
  private WarehouseTarget warehouse(WorkspaceModel model) {
    return new WarehouseTarget(
        model, WeaverConf.forWorkspace(spark, root).settings(), System.getenv(), progress);
  }

  /**
   * The load runner over a checked model, with the staging providers registered so far; Python
   * Tables go to the Python runtime registered for this SparkContext ({@link PythonBridge}) unless
   * a provider for them was given.
   */
  public LoadRunner runner(WorkspaceModel model) {
    WeaverConf settings = WeaverConf.forWorkspace(spark, root);
    LoadRunner runner =
        new LoadRunner(spark, model, layout, progress)
            .withWarehouse(warehouse(model))
            .withPublish(settings::publishesTogether)
            .withThreads(settings.threads(spark.sparkContext().defaultParallelism()));
    if (!providers.containsKey(Form.PYTHON)) {
      // a Python runtime attached to this SparkContext (PySpark, bin/weaver's worker)
      PythonBridge.provider(spark, layout)
          .ifPresentOrElse(
              p -> runner.withProvider(Form.PYTHON, StagingProvider.oneAtATime(p)),
              () -> runner.withUnavailable(Form.PYTHON, PythonBridge::notAvailable));
    }
    providers.forEach(
        (form, p) ->
            runner.withProvider(form, form == Form.PYTHON ? StagingProvider.oneAtATime(p) : p));
    return runner;
  }

  /** Registers how Tables of a form are staged (the Python bindings register Python). */
  public WeaverWorkspace withProvider(Form form, StagingProvider provider) {
    providers.put(form, provider);
    return this;
  }

  static void requireMatch(WorkspaceModel model, Scope scope) {
    if (model.tables().stream().noneMatch(scope.filter())) {
      String what =
          scope
              .table()
              .map(id -> "Table " + id)
              .orElse(scope.item().map(i -> "item " + i).orElse("any Table"));
      String message =
          "the workspace "
              + model.root()
              + " has no "
              + what
              + "; check the name (names are case-sensitive)";
      if (scope.table().isEmpty() && scope.item().isPresent()) {
        throw new WeaverArgumentException(
            WeaverErrorClass.WEAVER_ITEM_NOT_FOUND,
            message,
            ErrorFacts.of(ErrorParameter.ITEM, scope.item().get()));
      }
      // No Table matched: the one named, or any (an empty workspace).
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_TABLE_NOT_FOUND,
          message,
          ErrorFacts.of(ErrorParameter.TABLE, scope.table().map(String::valueOf).orElse("")));
    }
  }

  /**
   * Restores one Table to the state {@code loadId} left it in: Delta data, load state and bookmark
   * (docs/table-contract.md, "Guarantees"). The next load behaves as if the loads after {@code
   * loadId} never happened.
   *
   * @throws IllegalArgumentException for an unknown Table, an unbuilt one, or a load id that is not
   *     a succeeded or recovered load of it
   */
  public LoadRestore.Result restore(Scope table, String loadId) {
    WorkspaceModel model = model();
    TableDeclaration t = oneTable(model, table);
    if (t.target() == Target.WAREHOUSE) {
      return warehouse(model).restore(t, loadId);
    }
    return LoadRestore.restore(spark, layout, t, loadId);
  }

  /**
   * Publishes {@code item} at every Table's latest version (PUBLISH WEAVER ITEM;
   * docs/table-contract.md, "Item publish"). Of an item that does not publish together, lifts an
   * old publish's pins, if any, and otherwise writes nothing.
   */
  public ItemPublisher.Outcome publish(String item) {
    WorkspaceModel model = model();
    requireMatch(model, Scope.item(item));
    return runner(model).publishItem(item);
  }

  /** Whether {@code item} publishes together (the session conf, then weaver.yaml). */
  public boolean publishesTogether(String item) {
    return WeaverConf.forWorkspace(spark, root).publishesTogether(item);
  }

  /**
   * Restores every Table of {@code item} to the version publish {@code publishId} pinned, then
   * publishes them (RESTORE WEAVER ITEM … TO PUBLISH).
   *
   * @throws IllegalArgumentException for an unknown item or publish
   */
  public ItemRestore.Result restoreItem(String item, String publishId) {
    WorkspaceModel model = model();
    requireMatch(model, Scope.item(item));
    return ItemRestore.restore(
        spark, layout, model, runner(model).publisher(), item, publishId, publishesTogether(item));
  }

  /** Every Table of the model in scope. */
  public List<TableDeclaration> tables(Scope scope) {
    return model().tables().stream().filter(scope.filter()).toList();
  }
}
