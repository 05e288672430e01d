package io.weaver.check;

import static io.weaver.metadata.TableKeys.DEPENDENCIES;

import io.weaver.findings.RuleIds;
import io.weaver.findings.Severity;
import io.weaver.findings.SourcePos;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceDependencies.Edge;
import io.weaver.metadata.WorkspaceDependencies.Read;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reports each cycle of the workspace's dependency graph once, at its first Table: the graph Build
 * and Load order by, so declared dependencies and the Tables a Spark SQL body reads both count.
 */
final class CycleFinder {
  interface Reporter {
    void report(
        TableDeclaration table, SourcePos pos, Severity severity, String rule, String message);
  }

  private final WorkspaceDependencies graph;
  private final Reporter reporter;

  CycleFinder(WorkspaceDependencies graph, Reporter reporter) {
    this.graph = graph;
    this.reporter = reporter;
  }

  void run() {
    for (List<Edge> cycle : graph.cycles()) {
      if (cycle.isEmpty()) {
        continue;
      }
      Edge first = cycle.get(0);
      reporter.report(
          first.table(), position(first), Severity.ERROR, RuleIds.DEPENDENCY_CYCLE, message(cycle));
    }
  }

  /** A declared edge at its Dependencies key, an inferred one at the statement that reads it. */
  private static SourcePos position(Edge edge) {
    return edge.inferred() ? edge.reads().get(0).pos() : edge.table().posOf(DEPENDENCIES);
  }

  private static String message(List<Edge> cycle) {
    List<String> path = new ArrayList<>();
    path.add(cycle.get(0).table().qualifiedName());
    cycle.forEach(e -> path.add(e.dependsOnQualified().orElseThrow()));
    String text = "dependencies form a cycle: " + String.join(" -> ", path);
    List<Edge> inferred = cycle.stream().filter(Edge::inferred).toList();
    if (inferred.isEmpty()) {
      return text
          + "; a Table cannot (indirectly) depend on itself, remove one of these dependencies";
    }
    String why =
        inferred.stream()
            .map(
                e ->
                    e.table().qualifiedName()
                        + " -> "
                        + e.dependsOnQualified().orElseThrow()
                        + " is inferred because its SQL reads "
                        + e.reads().stream()
                            .map(r -> reads(e, r))
                            .collect(Collectors.joining(", ")))
            .collect(Collectors.joining("; "));
    boolean anyDeclared = inferred.size() < cycle.size();
    return text
        + " ("
        + why
        + (anyDeclared ? "; the other edges are declared in Dependencies" : "")
        + "); a Table cannot (indirectly) depend on itself: change one of these queries so it no"
        + " longer reads the Table"
        + (anyDeclared ? ", or remove one of the declared dependencies" : "");
  }

  private static String reads(Edge edge, Read read) {
    return read.text()
        + " ("
        + edge.table().source().relativePath()
        + " line "
        + read.pos().line()
        + ")";
  }
}
