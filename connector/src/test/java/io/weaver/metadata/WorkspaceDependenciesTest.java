package io.weaver.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weaver.check.Check;
import io.weaver.findings.SourcePos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one graph: declared and inferred edges, every name read, the order Build and Load use. */
class WorkspaceDependenciesTest {
  @TempDir Path dir;

  private void sql(String item, String id, String header, String body) throws IOException {
    Path file = dir.resolve("Lakehouse/" + item + "/Tables/" + id + ".sql");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file, "/*\nTable ID: " + id + "\nDescription: A table.\n" + header + "*/\n" + body);
  }

  private TableDeclaration table(WorkspaceModel model, String item, String id) {
    return model.tables().stream()
        .filter(t -> t.qualifiedName().equals(item + "." + id))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void edgesReadsAndOrder() throws IOException {
    sql(
        "L",
        "A.Top",
        "Dependencies: [A.Mid, Files/Raw.Events]\n",
        "create temp view v as select k from A.Mid join M.A.Base using (k);\n"
            + "select k from v union all select k from parquet.`/data/x`"
            + " union all select k from spark_catalog.db.t union all select k from A.Top;\n");
    sql("L", "A.Mid", "", "select k from M.A.Base;\n");
    sql("M", "A.Base", "", "select 1 as k;\n");
    WorkspaceModel model = Check.analyze(dir).validModel();
    WorkspaceDependencies graph = WorkspaceDependencies.of(model);

    TableDeclaration top = table(model, "L", "A.Top");
    List<WorkspaceDependencies.Edge> edges = graph.edgesOf(top);
    assertEquals(
        List.of("declared:A.Mid", "declared:Files/Raw.Events", "inferred:M.A.Base"),
        edges.stream().map(e -> e.kind() + ":" + e.dependsOn()).toList());
    assertEquals(
        List.of(List.of("M", "A", "Base")),
        edges.get(2).reads().stream().map(WorkspaceDependencies.Read::name).toList());
    assertEquals(new SourcePos(6, 1), edges.get(2).reads().get(0).pos());
    assertEquals(
        List.of("A.Mid", "M.A.Base", "v", "parquet.`/data/x`", "spark_catalog.db.t", "A.Top"),
        graph.readsOf(top).stream().map(WorkspaceDependencies.Read::text).toList());

    assertEquals(
        List.of("M.A.Base", "L.A.Mid", "L.A.Top"),
        graph.order().stream().map(TableDeclaration::qualifiedName).toList());
    assertEquals(List.of(), graph.cycles());
  }
}
