package io.weaver.build;

import io.weaver.compat.SqlReferences;
import io.weaver.metadata.DependencyGraph;
import io.weaver.metadata.SqlProgram;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Form;
import io.weaver.workspace.Identity;
import io.weaver.workspace.TableId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * The dependency graph Build and Load order by: declared dependencies, plus for Spark SQL Tables
 * the workspace Tables their statements reference (read with Spark's parser), in topological order
 * (dependencies first).
 */
public final class DependencyPlan {

  /** One dependency as recorded in {@code _.Dependency}. */
  public record Edge(
      TableDeclaration table,
      String dependsOn,
      String dependsOnItem,
      TableId dependsOnTableId,
      String kind) {}

  private final List<TableDeclaration> order;
  private final Map<String, List<Edge>> edges;

  private DependencyPlan(List<TableDeclaration> order, Map<String, List<Edge>> edges) {
    this.order = order;
    this.edges = edges;
  }

  /** Every Table, dependencies first. */
  public List<TableDeclaration> order() {
    return order;
  }

  /** The dependencies of a Table (declared and inferred). */
  public List<Edge> edgesOf(TableDeclaration table) {
    return edges.getOrDefault(table.qualifiedName(), List.of());
  }

  public static DependencyPlan resolve(SparkSession spark, WorkspaceModel model) {
    Map<String, List<Edge>> edges = new LinkedHashMap<>();
    DependencyGraph graph = new DependencyGraph();
    Map<String, TableDeclaration> byName = new LinkedHashMap<>();
    for (TableDeclaration table : model.tables()) {
      byName.put(table.qualifiedName(), table);
      graph.addNode(table.qualifiedName());
      List<Edge> list = new ArrayList<>();
      for (Identity dep : table.dependencies()) {
        if (dep.files()) {
          list.add(new Edge(table, dep.toString(), null, dep.tableId(), "declared"));
          continue;
        }
        model
            .resolve(dep, table.item())
            .ifPresent(
                target -> {
                  list.add(
                      new Edge(table, dep.toString(), target.item(), target.tableId(), "declared"));
                  graph.addEdge(table.qualifiedName(), target.qualifiedName());
                });
      }
      for (TableDeclaration target : inferred(spark, model, table)) {
        boolean declared =
            list.stream()
                .anyMatch(
                    e ->
                        target.item().equals(e.dependsOnItem())
                            && target.tableId().equals(e.dependsOnTableId()));
        if (!declared && !target.qualifiedName().equals(table.qualifiedName())) {
          String text =
              target.item().equals(table.item())
                  ? target.tableId().toString()
                  : target.qualifiedName();
          list.add(new Edge(table, text, target.item(), target.tableId(), "inferred"));
          graph.addEdge(table.qualifiedName(), target.qualifiedName());
        }
      }
      edges.put(table.qualifiedName(), List.copyOf(list));
    }
    List<TableDeclaration> order = graph.topologicalOrder().stream().map(byName::get).toList();
    return new DependencyPlan(order, edges);
  }

  /** Workspace Tables referenced by a Spark SQL Table's statements. */
  private static List<TableDeclaration> inferred(
      SparkSession spark, WorkspaceModel model, TableDeclaration table) {
    if (table.source().form() != Form.SPARK_SQL) {
      return List.of();
    }
    SqlProgram program = SqlProgram.of((TableBody.Sql) table.body());
    List<String> statements = new ArrayList<>(program.setup());
    statements.add(program.stagingQuery());
    program.deleteKeyQuery().ifPresent(statements::add);
    List<TableDeclaration> found = new ArrayList<>();
    for (String statement : statements) {
      List<List<String>> names;
      try {
        names = SqlReferences.of(spark, statement);
      } catch (RuntimeException e) {
        continue; // a statement Spark cannot parse: shape inference reports it with its position
      }
      for (List<String> name : names) {
        resolveName(model, table.item(), name)
            .filter(t -> !found.contains(t))
            .ifPresent(found::add);
      }
    }
    return found;
  }

  private static Optional<TableDeclaration> resolveName(
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
