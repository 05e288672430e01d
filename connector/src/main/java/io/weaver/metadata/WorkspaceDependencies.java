package io.weaver.metadata;

import io.weaver.findings.SourcePos;
import io.weaver.workspace.Identity;
import io.weaver.workspace.TableId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one dependency graph of a workspace, which Check validates and Build and Load order by: each
 * Table's declared dependencies plus, for Spark SQL Tables, the workspace Tables its statements
 * read (inferred with Spark's parser, statically). A two-part name read is a Table of the reader's
 * own item, a three-part name {@code Item.Schema.Object} one of that item; names that match no
 * workspace Table are kept as reads but are no edges.
 */
public final class WorkspaceDependencies {
  public static final String DECLARED = "declared";
  public static final String INFERRED = "inferred";

  /** A multipart name a statement reads, and where that statement starts in the file. */
  public record Read(List<String> name, SourcePos pos) {
    public Read {
      name = List.copyOf(name);
    }

    /** The name as written in SQL, e.g. {@code parquet.`/data/x`}. */
    public String text() {
      return SqlReads.display(name);
    }
  }

  /**
   * {@code table} depends on {@code dependsOn} (as authored or read).
   *
   * @param dependsOnItem the item of the Table depended on; null for a declared {@code Files/}
   *     object, which is recorded but never ordered
   * @param kind {@link #DECLARED} or {@link #INFERRED}
   * @param reads for an inferred edge, the names read that resolve to the Table; empty if declared
   */
  public record Edge(
      TableDeclaration table,
      String dependsOn,
      String dependsOnItem,
      TableId dependsOnTableId,
      String kind,
      List<Read> reads) {
    public Edge {
      reads = List.copyOf(reads);
    }

    /** {@code Item.Schema.Object} of the Table depended on, unless it is a {@code Files/} one. */
    public Optional<String> dependsOnQualified() {
      return dependsOnItem == null
          ? Optional.empty()
          : Optional.of(dependsOnItem + "." + dependsOnTableId);
    }

    public boolean inferred() {
      return INFERRED.equals(kind);
    }
  }

  private final Map<String, TableDeclaration> byName;
  private final Map<String, List<Edge>> edges;
  private final Map<String, List<Read>> reads;
  private final DependencyGraph graph;

  private WorkspaceDependencies(
      Map<String, TableDeclaration> byName,
      Map<String, List<Edge>> edges,
      Map<String, List<Read>> reads,
      DependencyGraph graph) {
    this.byName = byName;
    this.edges = edges;
    this.reads = reads;
    this.graph = graph;
  }

  /** Computes the graph; parses SQL but starts no Spark session and runs no job. */
  public static WorkspaceDependencies of(WorkspaceModel model) {
    Map<String, TableDeclaration> byName = new LinkedHashMap<>();
    Map<String, List<Edge>> edges = new LinkedHashMap<>();
    Map<String, List<Read>> reads = new LinkedHashMap<>();
    DependencyGraph graph = new DependencyGraph();
    for (TableDeclaration table : model.tables()) {
      byName.putIfAbsent(table.qualifiedName(), table);
      graph.addNode(table.qualifiedName());
      List<Edge> list = new ArrayList<>(declared(model, table));
      List<Read> read = SqlReads.of(table);
      list.addAll(inferred(model, table, read, list));
      list.stream()
          .flatMap(e -> e.dependsOnQualified().stream())
          .forEach(to -> graph.addEdge(table.qualifiedName(), to));
      edges.putIfAbsent(table.qualifiedName(), List.copyOf(list));
      reads.putIfAbsent(table.qualifiedName(), read);
    }
    return new WorkspaceDependencies(byName, edges, reads, graph);
  }

  /** Every Table, dependencies first; ties by name. */
  public List<TableDeclaration> order() {
    return graph.topologicalOrder().stream().map(byName::get).toList();
  }

  /** The dependencies of a Table, declared first, then inferred ones not also declared. */
  public List<Edge> edgesOf(TableDeclaration table) {
    return edges.getOrDefault(table.qualifiedName(), List.of());
  }

  /** Every name a Spark SQL Table's statements read, workspace Table or not (external sources). */
  public List<Read> readsOf(TableDeclaration table) {
    return reads.getOrDefault(table.qualifiedName(), List.of());
  }

  /** Each cycle once, as its edges in order; the first edge leaves the cycle's first Table. */
  public List<List<Edge>> cycles() {
    List<List<Edge>> cycles = new ArrayList<>();
    for (List<String> path : graph.cycles()) {
      List<Edge> cycle = new ArrayList<>();
      for (int i = 0; i + 1 < path.size(); i++) {
        String to = path.get(i + 1);
        edges.getOrDefault(path.get(i), List.of()).stream()
            .filter(e -> e.dependsOnQualified().filter(to::equals).isPresent())
            .findFirst()
            .ifPresent(cycle::add);
      }
      cycles.add(List.copyOf(cycle));
    }
    return cycles;
  }

  /** The Table of a qualified name. */
  public Optional<TableDeclaration> table(String qualifiedName) {
    return Optional.ofNullable(byName.get(qualifiedName));
  }

  private static List<Edge> declared(WorkspaceModel model, TableDeclaration table) {
    List<Edge> list = new ArrayList<>();
    for (Identity dep : table.dependencies()) {
      if (dep.files()) {
        list.add(new Edge(table, dep.toString(), null, dep.tableId(), DECLARED, List.of()));
        continue;
      }
      model
          .resolve(dep, table.item())
          .ifPresent(
              target ->
                  list.add(
                      new Edge(
                          table,
                          dep.toString(),
                          target.item(),
                          target.tableId(),
                          DECLARED,
                          List.of())));
    }
    return list;
  }

  /** Edges to the workspace Tables read, except the reader itself and those declared already. */
  private static List<Edge> inferred(
      WorkspaceModel model, TableDeclaration table, List<Read> reads, List<Edge> declared) {
    Map<String, TableDeclaration> targets = new LinkedHashMap<>();
    Map<String, List<Read>> via = new LinkedHashMap<>();
    for (Read read : reads) {
      resolve(model, table.item(), read.name())
          .filter(t -> !t.qualifiedName().equals(table.qualifiedName()))
          .filter(t -> declared.stream().noneMatch(e -> sameTarget(e, t)))
          .ifPresent(
              t -> {
                targets.putIfAbsent(t.qualifiedName(), t);
                via.computeIfAbsent(t.qualifiedName(), k -> new ArrayList<>()).add(read);
              });
    }
    List<Edge> list = new ArrayList<>();
    targets.forEach(
        (name, target) -> {
          String text =
              target.item().equals(table.item())
                  ? target.tableId().toString()
                  : target.qualifiedName();
          list.add(new Edge(table, text, target.item(), target.tableId(), INFERRED, via.get(name)));
        });
    return list;
  }

  private static boolean sameTarget(Edge edge, TableDeclaration target) {
    return target.item().equals(edge.dependsOnItem())
        && target.tableId().equals(edge.dependsOnTableId());
  }

  private static Optional<TableDeclaration> resolve(
      WorkspaceModel model, String item, List<String> name) {
    if (name.size() == 2) {
      return TableId.parse(name.get(0) + "." + name.get(1)).flatMap(id -> model.find(item, id));
    }
    if (name.size() == 3) {
      return TableId.parse(name.get(1) + "." + name.get(2))
          .flatMap(id -> model.find(name.get(0), id));
    }
    return Optional.empty();
  }
}
