package io.weaver.site;

import io.weaver.datatest.LastTestRuns;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.DependencyPlan;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Target;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * Everything the site shows, gathered once: each Table's declaration (from the checked model), its
 * built facts (catalogue) and last test run (lakehouse), the external sources Tables read, and the
 * edges of the dependency graph. A Table never built still has an entry, from its declaration.
 */
record SiteModel(
    WorkspaceModel workspace,
    List<Entry> entries,
    List<Source> sources,
    List<GraphLayout.Edge> edges,
    Map<String, Optional<LastTestRuns.Run>> authoredTests) {

  /** A column as built, from {@code _.ColumnDictionary}. */
  record Column(
      String name,
      String type,
      boolean nullable,
      String managedRole,
      String note,
      String noteReference) {}

  /** One load attempt, from {@code _.LoadHistory}. */
  record Load(
      String loadId,
      String status,
      Instant at,
      long inserted,
      long updated,
      long deleted,
      long rejected,
      Long liveAfter,
      String message,
      Map<String, Long> violations) {}

  /**
   * Something a Table reads that is not a workspace Table: a {@code Files/} object, a path, a table
   * of another catalog.
   *
   * @param item the item whose file area it is in, or null
   */
  record Source(String id, String text, String kind, String item) {}

  /**
   * A dependency of a Table as the page lists it.
   *
   * @param table the item-qualified Table, when it is one of the workspace
   * @param source the external source's id otherwise
   */
  record Dependency(String text, String kind, Optional<String> table, Optional<String> source) {}

  /**
   * One Table.
   *
   * @param builtAt when Build last wrote its catalogue rows; null when never built
   * @param columns as built, empty when never built
   * @param historyColumns its history table's columns as built ({@code History: true}), else empty
   * @param loads the last loads, oldest first
   * @param dependants item-qualified names of the Tables that read this one
   */
  record Entry(
      TableDeclaration table,
      Instant builtAt,
      List<Column> columns,
      List<Column> historyColumns,
      List<Load> loads,
      Optional<LastTestRuns.Run> tests,
      List<Dependency> dependsOn,
      List<String> dependants) {
    boolean built() {
      return builtAt != null;
    }
  }

  /** The prefix of an external source's node id (Table ids never start with it). */
  static final String SOURCE_PREFIX = "source:";

  static SiteModel gather(
      SparkSession spark, LakehouseLayout layout, WorkspaceModel model, int loadsPerTable) {
    DependencyPlan plan = DependencyPlan.resolve(model);
    LastTestRuns lastTests = new LastTestRuns(spark, layout);
    Map<String, CatalogueFacts> facts = new LinkedHashMap<>();
    Map<String, LastTestRuns.ItemRuns> tests = new LinkedHashMap<>();
    Map<String, Optional<LastTestRuns.Run>> authored = new LinkedHashMap<>();
    for (String item : model.items()) {
      boolean lakehouse =
          model.tables().stream()
              .anyMatch(t -> t.item().equals(item) && t.target() == Target.LAKEHOUSE);
      if (lakehouse) {
        facts.put(item, CatalogueFacts.read(spark, layout, item, loadsPerTable));
        LastTestRuns.ItemRuns runs = lastTests.read(item);
        tests.put(item, runs);
        authored.put(item, runs.authored());
      }
    }
    Map<String, Source> sources = new LinkedHashMap<>();
    Set<GraphLayout.Edge> edges = new LinkedHashSet<>();
    Map<String, List<String>> dependants = new LinkedHashMap<>();
    Map<String, List<Dependency>> dependsOn = new LinkedHashMap<>();
    for (TableDeclaration t : model.tables()) {
      List<Dependency> deps = new ArrayList<>();
      List<WorkspaceDependencies.Edge> all = new ArrayList<>(plan.edgesOf(t));
      all.addAll(plan.sourcesOf(t));
      for (WorkspaceDependencies.Edge e : all) {
        Optional<String> target = e.dependsOnQualified();
        if (target.isPresent()) {
          deps.add(new Dependency(e.dependsOn(), e.kind(), target, Optional.empty()));
          edges.add(new GraphLayout.Edge(target.get(), t.qualifiedName()));
          dependants.computeIfAbsent(target.get(), k -> new ArrayList<>()).add(t.qualifiedName());
        } else {
          // A Files/ object or a Files/ path is the item's own: two items' are different sources.
          String text = e.dependsOn();
          String item = text.contains("Files/") ? t.item() : null;
          String id = SOURCE_PREFIX + (item == null ? "" : item + "/") + text;
          sources.putIfAbsent(id, new Source(id, text, e.kind(), item));
          deps.add(new Dependency(e.dependsOn(), e.kind(), Optional.empty(), Optional.of(id)));
          edges.add(new GraphLayout.Edge(id, t.qualifiedName()));
        }
      }
      dependsOn.put(t.qualifiedName(), deps);
    }
    List<Entry> entries = new ArrayList<>();
    for (TableDeclaration t : model.tables()) {
      String id = t.tableId().toString();
      CatalogueFacts f = facts.get(t.item());
      LastTestRuns.ItemRuns runs = tests.get(t.item());
      entries.add(
          new Entry(
              t,
              f == null ? null : f.builtAt.get(id),
              f == null ? List.of() : f.columns.getOrDefault(id, List.of()),
              f == null || !t.history()
                  ? List.of()
                  : f.columns.getOrDefault(t.tableId().history().toString(), List.of()),
              f == null ? List.of() : f.loads.getOrDefault(id, List.of()),
              runs == null ? Optional.empty() : Optional.ofNullable(runs.tables().get(id)),
              dependsOn.getOrDefault(t.qualifiedName(), List.of()),
              dependants.getOrDefault(t.qualifiedName(), List.of()).stream().distinct().toList()));
    }
    return new SiteModel(
        model, entries, List.copyOf(sources.values()), List.copyOf(edges), authored);
  }

  /** The entry of an item-qualified Table. */
  Optional<Entry> entry(String qualifiedName) {
    return entries.stream()
        .filter(e -> e.table().qualifiedName().equals(qualifiedName))
        .findFirst();
  }
}
