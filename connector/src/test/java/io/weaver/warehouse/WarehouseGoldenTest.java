package io.weaver.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.check.Check;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The generated T-SQL of the declarations in {@code src/test/resources/warehouse/workspace}, pinned
 * batch by batch in {@code src/test/resources/warehouse/golden} (reviewed once; a change to
 * generated T-SQL shows up as a diff of these files). The python-bindings build parses every one of
 * them with sqlfluff's T-SQL dialect. After an intended change, regenerate with {@code
 * -Dweaver.golden.update=true} and review the diff.
 */
class WarehouseGoldenTest {
  private static final Path RESOURCES = Path.of("src/test/resources/warehouse");
  private static final Path GOLDEN = RESOURCES.resolve("golden");

  /** The build time the catalogue rows record, fixed so that they can be pinned. */
  private static final Instant BUILT_AT = Instant.parse("2026-01-02T03:04:05.123456Z");

  @Test
  void generatedBatchesEqualTheGoldenFiles() throws IOException {
    Map<Path, String> expected = generated();
    assertTrue(
        expected.size() >= 20, "the golden set covers every declaration: " + expected.keySet());
    if (Boolean.getBoolean("weaver.golden.update")) {
      write(expected);
    }
    TreeSet<Path> onDisk = new TreeSet<>();
    try (Stream<Path> files = Files.walk(GOLDEN)) {
      files.filter(p -> p.toString().endsWith(".sql")).forEach(onDisk::add);
    }
    List<String> problems = new ArrayList<>();
    for (Map.Entry<Path, String> e : expected.entrySet()) {
      if (!onDisk.remove(e.getKey())) {
        problems.add("missing golden file " + e.getKey());
      } else if (!Files.readString(e.getKey(), StandardCharsets.UTF_8).equals(e.getValue())) {
        problems.add("generated T-SQL differs from " + e.getKey());
      }
    }
    onDisk.forEach(stale -> problems.add("golden file no longer generated: " + stale));
    assertEquals(
        List.of(), problems, "regenerate with -Dweaver.golden.update=true and review the diff");
  }

  /**
   * Golden path → batch text, for the catalogue and every Table, its catalogue rows included
   * (OrderLine's load procedure also as MERGE).
   */
  static Map<Path, String> generated() {
    WorkspaceModel model = Check.analyze(RESOURCES.resolve("workspace")).validModel();
    WorkspaceDependencies graph = WorkspaceDependencies.of(model);
    Map<Path, String> files = new LinkedHashMap<>();
    put(files, GOLDEN.resolve("_catalogue"), CatalogueDdl.all(), "");
    for (TableDeclaration t : model.tables()) {
      assertEquals(Target.WAREHOUSE, t.target());
      WarehouseTable table = WarehouseTable.declared(t).orElseThrow();
      Path folder = GOLDEN.resolve(t.tableId().toString());
      put(
          files,
          folder,
          WarehouseScript.build(model, table, graph.edgesOf(t), DmlForm.UPDATE_INSERT, BUILT_AT),
          "");
      if (t.tableId().toString().equals("Sales.OrderLine")) {
        put(files, folder, List.of(LoadProcedure.of(table, DmlForm.MERGE)), "merge-");
      }
    }
    return files;
  }

  private static void put(
      Map<Path, String> files, Path folder, List<Batch> batches, String prefix) {
    for (int i = 0; i < batches.size(); i++) {
      Batch b = batches.get(i);
      String name = String.format("%s%02d-%s.sql", prefix, i + 1, b.name());
      String text = b.sql().endsWith("\n") ? b.sql() : b.sql() + "\n";
      files.put(folder.resolve(name), text);
    }
  }

  private static void write(Map<Path, String> files) {
    try {
      if (Files.exists(GOLDEN)) {
        try (Stream<Path> old = Files.walk(GOLDEN)) {
          old.filter(p -> p.toString().endsWith(".sql")).forEach(p -> p.toFile().delete());
        }
      }
      for (Map.Entry<Path, String> e : files.entrySet()) {
        Files.createDirectories(e.getKey().getParent());
        Files.writeString(e.getKey(), e.getValue(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
