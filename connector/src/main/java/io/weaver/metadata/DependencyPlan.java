package io.weaver.metadata;

import io.weaver.workspace.Identifiers;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What Build and Load order by: the workspace's one dependency graph ({@link
 * WorkspaceDependencies}, the graph Check validates), Tables in topological order (dependencies
 * first), and each Table's edges as recorded in {@code _.Dependency}.
 */
public final class DependencyPlan {

  private final WorkspaceDependencies graph;

  private DependencyPlan(WorkspaceDependencies graph) {
    this.graph = graph;
  }

  /** Every Table, dependencies first. */
  public List<TableDeclaration> order() {
    return graph.order();
  }

  /** The dependencies of a Table (declared and inferred). */
  public List<WorkspaceDependencies.Edge> edgesOf(TableDeclaration table) {
    return graph.edgesOf(table);
  }

  /**
   * Every multipart name a Spark SQL Table's statements read, in first-seen order, whether or not
   * it names a workspace Table ({@code parquet.`/path`}, {@code spark_catalog.db.t}); empty for
   * other forms.
   */
  public List<List<String>> readsOf(TableDeclaration table) {
    return graph.readsOf(table).stream().map(WorkspaceDependencies.Read::name).toList();
  }

  /**
   * The sources a Table reads that are not workspace Tables — paths ({@code parquet.`Files/x`},
   * {@code delta.`/data/t`}) and tables of the session catalog or any other catalog — as {@code
   * external} edges whose {@code dependsOn} is the name as written. One-part names are left out:
   * they are the temporary views and common table expressions of the statements themselves.
   */
  public List<WorkspaceDependencies.Edge> sourcesOf(TableDeclaration table) {
    Set<List<String>> tables = new HashSet<>();
    graph.edgesOf(table).forEach(e -> e.reads().forEach(r -> tables.add(r.name())));
    return graph.readsOf(table).stream()
        .filter(read -> read.name().size() > 1 && !tables.contains(read.name()))
        .filter(read -> !isOwnTable(table, read.name()))
        .map(
            read ->
                new WorkspaceDependencies.Edge(
                    table, written(read.name()), null, null, EXTERNAL, List.of(read)))
        .toList();
  }

  /** The kind of an edge to a source outside the workspace. */
  public static final String EXTERNAL = "external";

  /** The Table reading its own target ({@code self}-reference) is no source. */
  private static boolean isOwnTable(TableDeclaration table, List<String> name) {
    List<String> own = List.of(table.tableId().schema(), table.tableId().object());
    return name.equals(own) || name.equals(List.of(table.item(), own.get(0), own.get(1)));
  }

  /** A multipart name as SQL text: plain parts as they are, others back-quoted. */
  private static String written(List<String> name) {
    return name.stream()
        .map(part -> Identifiers.isIdentifier(part) ? part : Identifiers.quote(part))
        .collect(Collectors.joining("."));
  }

  /** The graph of a checked workspace; parses SQL statically, without a session. */
  public static DependencyPlan resolve(WorkspaceModel model) {
    return new DependencyPlan(WorkspaceDependencies.of(model));
  }
}
