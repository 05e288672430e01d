package io.weaver.install;

import io.delta.tables.DeltaTable;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.DependencyPlan;
import io.weaver.metadata.DependencyWalk;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.TableKeys;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.session.Ahead;
import io.weaver.session.JobLabels;
import io.weaver.workspace.Target;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Build (docs/table-contract.md, "Build"): for each selected Table in dependency order, establish
 * its shape, compare its declaration with the registry and create, alter, replace or leave the
 * table; then write the catalogue rows of the Tables that changed. A workspace that did not change
 * writes nothing.
 */
public final class BuildRunner {
  private final SparkSession spark;
  private final WorkspaceModel model;
  private final LakehouseLayout layout;
  private final Consumer<String> progress;
  private final ShapeResolver shapes;
  private final TableDdl ddl;
  private Optional<WarehouseBuild> warehouse = Optional.empty();

  /**
   * Runs after each table Build creates, before its catalogue rows are written: nothing in a Build;
   * tests stop a Build there, as a process killed at that point would (docs/reliability.md).
   */
  private Consumer<String> afterCreate = id -> {};

  public BuildRunner(
      SparkSession spark, WorkspaceModel model, LakehouseLayout layout, Consumer<String> progress) {
    this.spark = spark;
    this.model = model;
    this.layout = layout;
    this.progress = progress;
    this.shapes = new ShapeResolver(spark);
    this.ddl = new TableDdl(spark, model);
  }

  /**
   * Builds the Tables {@code selected} accepts; {@code allowDestructive} lifts Build protection.
   */
  public List<BuildOutcome> run(Predicate<TableDeclaration> selected, boolean allowDestructive) {
    return build(selected, allowDestructive, BuildActions.APPLY);
  }

  /**
   * What {@link #run} would do with the Tables {@code selected} accepts — the same classification,
   * outcome and message — writing nothing: no table, no catalogue row, not even an empty catalogue.
   */
  public List<BuildOutcome> plan(Predicate<TableDeclaration> selected, boolean allowDestructive) {
    return build(selected, allowDestructive, BuildActions.PLAN);
  }

  private List<BuildOutcome> build(
      Predicate<TableDeclaration> selected, boolean allowDestructive, BuildActions actions) {
    // Build stops no Table: a Table whose dependency failed is still built.
    DependencyWalk<BuildOutcome> walk = DependencyWalk.of(model, selected);
    DependencyPlan plan = walk.plan();
    List<TableDeclaration> tables = walk.tables();
    Map<String, ItemState> items = new LinkedHashMap<>();
    List<BuildOutcome> outcomes = new ArrayList<>();
    int done = 0;
    for (TableDeclaration t : tables) {
      progress.accept(
          actions.label() + " " + (++done) + "/" + tables.size() + " " + t.qualifiedName());
      if (t.target() == Target.WAREHOUSE) {
        outcomes.add(buildInWarehouse(t, plan, actions));
        continue;
      }
      ItemState item = items.computeIfAbsent(t.item(), name -> openItem(name, actions));
      try (JobLabels.Scope label = JobLabels.open(spark, actions.label(), t.qualifiedName())) {
        outcomes.add(buildOne(t, plan, item, allowDestructive, actions));
      } catch (BuildProblem e) {
        outcomes.add(new BuildOutcome(t.qualifiedName(), "failed", e.getMessage()));
      }
    }
    actions.change(() -> items.values().forEach(ItemState::writeCatalogue));
    return outcomes;
  }

  /**
   * A Warehouse Table is built through its item's T-SQL endpoint (docs/warehouse.md) when the entry
   * point wired one in; without it the Table is skipped with the setting that is missing.
   */
  private BuildOutcome buildInWarehouse(
      TableDeclaration t, DependencyPlan plan, BuildActions actions) {
    if (warehouse.isPresent()) {
      return warehouse.get().build(t, plan.edgesOf(t), actions.applies());
    }
    return new BuildOutcome(
        t.qualifiedName(),
        "skipped",
        "Warehouse Tables need a T-SQL endpoint: set spark.weaver.item."
            + t.item()
            + ".jdbcUrl (docs/warehouse.md); none is configured");
  }

  /** Builds Warehouse Tables through {@code warehouse}. */
  public BuildRunner withWarehouse(WarehouseBuild warehouse) {
    this.warehouse = Optional.of(warehouse);
    return this;
  }

  /**
   * Calls {@code hook} with the Table ID after each table this runner creates, before the catalogue
   * rows are written: for tests that interrupt a Build there.
   */
  BuildRunner afterCreate(Consumer<String> hook) {
    this.afterCreate = hook;
    return this;
  }

  /** The item's catalogue, created when missing; a plan reads it as it is (maybe none yet). */
  private ItemState openItem(String item, BuildActions actions) {
    Catalogue catalogue = new Catalogue(spark, layout, item);
    actions.change(catalogue::ensureTables);
    return new ItemState(catalogue);
  }

  private BuildOutcome buildOne(
      TableDeclaration t,
      DependencyPlan plan,
      ItemState item,
      boolean allowDestructive,
      BuildActions actions) {
    TableShape shape = shapes.shape(t);
    List<WorkspaceDependencies.Edge> edges = plan.edgesOf(t);
    String declarationSignature = Signatures.declaration(t, shape.catalogueColumns(), edges);
    String id = t.tableId().toString();
    String path = layout.tablePath(t.item(), t.tableId());
    Optional<CatalogueRows.RegistryEntry> registry = Optional.ofNullable(item.registry.get(id));
    boolean exists = DeltaTable.isDeltaTable(spark, path);
    Map<String, String> defaults =
        registry.flatMap(CatalogueRows.RegistryEntry::creationDefaults).orElse(creationDefaults());
    int minReader =
        t.deltaMinReaderVersion()
            .orElse(
                Integer.parseInt(
                    defaults.getOrDefault(
                        "delta.minReaderVersion",
                        Integer.toString(TableKeys.CREATION_DEFAULT_MIN_READER))));
    int minWriter =
        t.deltaMinWriterVersion()
            .orElse(
                Integer.parseInt(
                    defaults.getOrDefault(
                        "delta.minWriterVersion",
                        Integer.toString(TableKeys.CREATION_DEFAULT_MIN_WRITER))));
    String structureSignature =
        Signatures.structure(t, shape.catalogueColumns(), minReader, minWriter);
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    // Every path that changes the table records the same catalogue rows.
    Runnable recordChange =
        () ->
            item.changed(
                model,
                t,
                shape,
                plan,
                declarationSignature,
                structureSignature,
                minReader,
                minWriter,
                now,
                defaults);

    // A table an interrupted Build created (no registry row, nothing but Build's create in its
    // history, no data) is completed as new: it is replaced by the declared structure, in one
    // commit, and its catalogue rows are written.
    boolean unfinished = exists && registry.isEmpty() && UnfinishedCreate.at(spark, path, t);
    // A Table with history: what its history table cannot take is refused before anything changes.
    String historyPath = HistoryTable.path(layout, t);
    if (t.history()) {
      HistoryTable.check(spark, historyPath, t, shape);
    }
    Runnable ensureHistory =
        () -> {
          if (t.history()) {
            HistoryTable.ensure(spark, historyPath, t, shape);
          }
        };
    if (!exists || unfinished) {
      actions.change(
          () -> {
            ddl.create(path, t, shape, minReader, minWriter, unfinished);
            afterCreate.accept(id);
            ensureHistory.run();
            recordChange.run();
          });
      return new BuildOutcome(
          t.qualifiedName(),
          "created",
          (unfinished
                  ? actions.said(
                      "completed the table an interrupted Build created at ",
                      "would complete the table an interrupted Build created at ")
                  : actions.said("created ", "would create "))
              + path
              + " with "
              + shape.columns().size()
              + " business column(s)");
    }
    if (registry.isPresent()
        && registry.get().declarationSignature().equals(declarationSignature)) {
      if (t.history() && DeltaLogs.schema(spark, historyPath).isEmpty()) {
        // The history table went missing since it was built: made again, empty; the next load
        // starts it from the Table's rows.
        actions.change(ensureHistory);
        return new BuildOutcome(
            t.qualifiedName(),
            "updated",
            actions.said("history table created at ", "would create the history table at ")
                + historyPath);
      }
      return new BuildOutcome(t.qualifiedName(), "unchanged", "declaration unchanged");
    }
    ChangeClassifier.Previous previous =
        item.previous(id, DeltaTable.forPath(spark, path).toDF().schema());
    ChangeClassifier.Change change = ChangeClassifier.classify(t, shape, previous);
    if (!change.destructive().isEmpty()) {
      String lost = String.join("; ", change.destructive());
      if (!allowDestructive) {
        return new BuildOutcome(
            t.qualifiedName(),
            "refused",
            "Build protection: "
                + lost
                + ". Nothing was changed. To replace the table (its old data stays reachable by Delta time"
                + " travel), build again allowing destructive changes (--allow-destructive / ALLOW DESTRUCTIVE)");
      }
      actions.change(
          () -> {
            ddl.create(path, t, shape, minReader, minWriter, true);
            // A replace keeps the old protocol: a feature declared off must still be dropped.
            if (!t.deltaDeletionVectors() && ddl.deletionVectorsDiffer(path, t)) {
              ddl.deletionVectors(path, false);
            }
            // History is never dropped: its open versions close at the replace, the next load
            // opens new ones (docs/table-contract.md, "History").
            ensureHistory.run();
            if (t.history()) {
              HistoryTable.closeOpenVersions(spark, historyPath, now);
            }
            recordChange.run();
          });
      return new BuildOutcome(
          t.qualifiedName(),
          "replaced",
          actions.said("replaced in one commit: ", "would replace in one commit: ") + lost);
    }
    List<String> done = new ArrayList<>();
    if (!change.added().isEmpty()) {
      actions.change(() -> ddl.addColumns(path, t, shape, change.added()));
      done.add(
          actions.said("added ", "would add ")
              + String.join(", ", change.added().stream().map(BuiltColumn::name).toList()));
    }
    for (String column : change.relaxed()) {
      actions.change(() -> ddl.dropNotNull(path, column));
      done.add(column + actions.said(" now nullable", " would become nullable"));
    }
    if (change.resign()) {
      actions.change(() -> ddl.resign(path, Signatures.comparisonColumns(t, shape.names())));
      done.add(
          actions.said("rows re-signed", "rows would be re-signed")
              + " for comparison columns "
              + String.join(", ", Signatures.comparisonColumns(t, shape.names())));
    }
    boolean deletionVectors = ddl.deletionVectorsDiffer(path, t);
    if (deletionVectors) {
      actions.change(() -> ddl.deletionVectors(path, t.deltaDeletionVectors()));
      done.add(
          t.deltaDeletionVectors()
              ? actions.said("deletion vectors enabled", "deletion vectors would be enabled")
              : actions.said(
                  "deletion vectors dropped (files with deletion vectors rewritten, feature removed"
                      + " from the protocol)",
                  "deletion vectors would be dropped (files with deletion vectors rewritten,"
                      + " feature removed from the protocol)"));
    }
    actions.change(ensureHistory);
    actions.change(recordChange);
    return change.physical() || deletionVectors
        ? new BuildOutcome(t.qualifiedName(), "altered", String.join("; ", done))
        : new BuildOutcome(
            t.qualifiedName(),
            "updated",
            actions.said(
                "metadata changed; catalogue updated", "metadata would change (catalogue)"));
  }

  private static Map<String, String> creationDefaults() {
    return Map.of(
        "delta.minReaderVersion", Integer.toString(TableKeys.CREATION_DEFAULT_MIN_READER),
        "delta.minWriterVersion", Integer.toString(TableKeys.CREATION_DEFAULT_MIN_WRITER));
  }

  /** One item's catalogue: what it held before this Build and the rows this Build replaces. */
  private static final class ItemState {
    private final Catalogue catalogue;
    private final Map<String, CatalogueRows.RegistryEntry> registry = new HashMap<>();
    private final Map<String, CatalogueRows.DictionaryEntry> dictionary = new HashMap<>();
    private final List<String> changedIds = new ArrayList<>();
    private final Map<CatalogueTable, List<Row>> rows = new HashMap<>();

    ItemState(Catalogue catalogue) {
      this.catalogue = catalogue;
      // Catalogue metadata: a few rows per Table, fine to bring to the driver. A plan of an item
      // never built finds no catalogue: every Table is new. The two reads run side by side (each a
      // Delta snapshot and a small job).
      CompletableFuture<List<Row>> dictionaryRows =
          Ahead.start(
              catalogue.spark(), "catalogue", () -> rowsOf(CatalogueTable.TABLE_DICTIONARY));
      for (Row r : rowsOf(CatalogueTable.REGISTRY)) {
        CatalogueRows.RegistryEntry entry = CatalogueRows.RegistryEntry.fromRow(r);
        registry.put(entry.objectId(), entry);
      }
      for (Row r : Ahead.join(dictionaryRows)) {
        CatalogueRows.DictionaryEntry entry = CatalogueRows.DictionaryEntry.fromRow(r);
        dictionary.put(entry.tableId(), entry);
      }
    }

    private List<Row> rowsOf(CatalogueTable table) {
      return catalogue.exists(table) ? catalogue.read(table).collectAsList() : List.of();
    }

    ChangeClassifier.Previous previous(String id, org.apache.spark.sql.types.StructType physical) {
      CatalogueRows.DictionaryEntry entry = dictionary.get(id);
      if (entry == null) {
        return new ChangeClassifier.Previous(physical, List.of(), Optional.empty(), List.of());
      }
      return new ChangeClassifier.Previous(
          physical, entry.primaryKey(), entry.identityColumn(), entry.comparisonColumns());
    }

    void changed(
        WorkspaceModel model,
        TableDeclaration t,
        TableShape shape,
        DependencyPlan plan,
        String declarationSignature,
        String structureSignature,
        int minReader,
        int minWriter,
        Instant now,
        Map<String, String> defaults) {
      changedIds.add(t.tableId().toString());
      // The history table's rows go with its Table's: replaced when the Table's are, gone when
      // History is no longer declared (the history table itself stays).
      changedIds.add(t.tableId().history().toString());
      add(
          CatalogueTable.TABLE_DICTIONARY,
          List.of(
              CatalogueRows.tableDictionary(
                  t, shape.names(), minReader, minWriter, declarationSignature, now)));
      add(
          CatalogueTable.COLUMN_DICTIONARY,
          CatalogueRows.columnDictionary(model, t, shape.catalogueColumns()));
      add(CatalogueTable.KEY_DICTIONARY, CatalogueRows.keyDictionary(t, shape.names()));
      add(CatalogueTable.FOREIGN_KEY_DICTIONARY, CatalogueRows.foreignKeyDictionary(t));
      List<WorkspaceDependencies.Edge> recorded = new ArrayList<>(plan.edgesOf(t));
      recorded.addAll(plan.sourcesOf(t));
      add(CatalogueTable.DEPENDENCY, CatalogueRows.dependency(t, recorded));
      if (t.history()) {
        add(CatalogueTable.DEPENDENCY, List.of(CatalogueRows.historyDependency(t)));
        add(
            CatalogueTable.TABLE_DICTIONARY,
            List.of(CatalogueRows.historyDictionary(t, declarationSignature, now)));
        add(
            CatalogueTable.COLUMN_DICTIONARY,
            CatalogueRows.historyColumnDictionary(model, t, shape.catalogueColumns()));
      }
      add(
          CatalogueTable.REGISTRY,
          List.of(
              CatalogueRows.registry(t, declarationSignature, structureSignature, now, defaults)));
    }

    private void add(CatalogueTable table, List<Row> newRows) {
      rows.computeIfAbsent(table, k -> new ArrayList<>()).addAll(newRows);
    }

    void writeCatalogue() {
      if (changedIds.isEmpty()) {
        return;
      }
      // The dictionaries and dependencies side by side (one commit each, to tables of their own),
      // then the registry: its row's signatures say the Table was built, so it is written only
      // once the rest is, and a Build stopped before it builds the Table's rows again.
      Ahead.all(
          catalogue.spark(),
          "catalogue",
          Stream.of(
                  CatalogueTable.TABLE_DICTIONARY,
                  CatalogueTable.COLUMN_DICTIONARY,
                  CatalogueTable.KEY_DICTIONARY,
                  CatalogueTable.FOREIGN_KEY_DICTIONARY,
                  CatalogueTable.DEPENDENCY)
              .map(table -> (Runnable) () -> replace(table, "table_id"))
              .toList());
      replace(CatalogueTable.REGISTRY, "object_id");
    }

    private void replace(CatalogueTable table, String idColumn) {
      catalogue.replaceFor(table, idColumn, changedIds, rows.getOrDefault(table, List.of()));
    }
  }
}
