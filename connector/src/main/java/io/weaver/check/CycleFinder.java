package io.weaver.check;

import static io.weaver.metadata.TableKeys.DEPENDENCIES;

import io.weaver.metadata.DependencyGraph;
import io.weaver.metadata.SourcePos;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Identity;
import java.util.List;

/** Reports each cycle among declared dependencies once, at the first Table of the cycle. */
final class CycleFinder {
  interface Reporter {
    void report(
        TableDeclaration table, SourcePos pos, Severity severity, String rule, String message);
  }

  private final WorkspaceModel model;
  private final Reporter reporter;

  CycleFinder(WorkspaceModel model, Reporter reporter) {
    this.model = model;
    this.reporter = reporter;
  }

  void run() {
    DependencyGraph graph = new DependencyGraph();
    for (TableDeclaration table : model.tables()) {
      graph.addNode(table.qualifiedName());
      for (Identity dep : table.dependencies()) {
        model
            .resolve(dep, table.item())
            .ifPresent(d -> graph.addEdge(table.qualifiedName(), d.qualifiedName()));
      }
    }
    for (List<String> cycle : graph.cycles()) {
      String first = cycle.get(0);
      model.tables().stream()
          .filter(t -> t.qualifiedName().equals(first))
          .findFirst()
          .ifPresent(
              t ->
                  reporter.report(
                      t,
                      t.posOf(DEPENDENCIES),
                      Severity.ERROR,
                      Rules.DEPENDENCY_CYCLE,
                      "dependencies form a cycle: "
                          + String.join(" -> ", cycle)
                          + "; a Table cannot (indirectly) depend on itself, remove one of these"
                          + " dependencies"));
    }
  }
}
