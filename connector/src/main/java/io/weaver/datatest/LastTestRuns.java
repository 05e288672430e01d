package io.weaver.datatest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.json.Json;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.DataTestDeclaration;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Target;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;

/**
 * The last test results of each Table, kept per item in one JSON document at {@code
 * <root>/<Item>/Files/_weaver/last-tests.json} (docs/docs-site.md, "Last test results"), written
 * through Hadoop's FileSystem so any lakehouse URI works. A run replaces the entries of the Tables
 * (and, when authored tests ran, the item's authored tests) it covered and keeps the others.
 */
public final class LastTestRuns {
  /** The document's file name under {@code Files/_weaver}. */
  public static final String FILE = "last-tests.json";

  /** The tests of one Table (or an item's authored tests) in one run. */
  public record Run(Instant runAt, List<DataTestResult> results) {
    public Run {
      results = List.copyOf(results);
    }
  }

  /**
   * One item's document.
   *
   * @param tables by Table ID ({@code Schema.Object})
   * @param authored the item's authored tests, when a run included them
   */
  public record ItemRuns(Map<String, Run> tables, Optional<Run> authored) {
    public ItemRuns {
      tables = Map.copyOf(tables);
    }

    static ItemRuns empty() {
      return new ItemRuns(Map.of(), Optional.empty());
    }
  }

  private final Configuration conf;
  private final LakehouseLayout layout;

  public LastTestRuns(SparkSession spark, LakehouseLayout layout) {
    this.conf = spark.sparkContext().hadoopConfiguration();
    this.layout = layout;
  }

  /** Where an item's document lives. */
  public String location(String item) {
    return layout.weaverFilePath(item, FILE);
  }

  /**
   * Records a run: the Lakehouse Tables {@code tables} accepts and, per item, its authored tests
   * when {@code tests} accepted one of them. A Table in scope with no test gets an empty entry.
   */
  public void record(
      WorkspaceModel model,
      Predicate<TableDeclaration> tables,
      Predicate<DataTestDeclaration> tests,
      List<DataTestResult> results,
      Instant runAt) {
    Set<String> items = new LinkedHashSet<>();
    List<TableDeclaration> inScope =
        model.tables().stream().filter(t -> t.target() == Target.LAKEHOUSE).filter(tables).toList();
    inScope.forEach(t -> items.add(t.item()));
    Set<String> authoredItems = new LinkedHashSet<>();
    model.tests().stream()
        .filter(t -> t.source().target() == Target.LAKEHOUSE)
        .filter(tests)
        .forEach(t -> authoredItems.add(t.item()));
    items.addAll(authoredItems);
    for (String item : items) {
      ItemRuns before = read(item);
      Map<String, Run> byTable = new LinkedHashMap<>(before.tables());
      for (TableDeclaration t : inScope) {
        if (t.item().equals(item)) {
          List<DataTestResult> mine =
              results.stream()
                  .filter(r -> !r.kind().equals(DataTestResult.AUTHORED))
                  .filter(r -> r.tableId().equals(t.qualifiedName()))
                  .toList();
          byTable.put(t.tableId().toString(), new Run(runAt, mine));
        }
      }
      Optional<Run> authored = before.authored();
      if (authoredItems.contains(item)) {
        authored =
            Optional.of(
                new Run(
                    runAt,
                    results.stream()
                        .filter(r -> r.kind().equals(DataTestResult.AUTHORED))
                        .filter(r -> r.tableId().equals(item))
                        .toList()));
      }
      write(item, new ItemRuns(byTable, authored));
    }
  }

  /** An item's document; empty when no run was recorded (or the document is unreadable). */
  public ItemRuns read(String item) {
    Path path = new Path(location(item));
    String text;
    try {
      FileSystem fs = path.getFileSystem(conf);
      if (!fs.exists(path)) {
        return ItemRuns.empty();
      }
      try (InputStream in = fs.open(path)) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        text = bytes.toString(StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the last test results at " + path, e);
    }
    try {
      return parse(Json.read(text));
    } catch (JsonProcessingException | RuntimeException e) {
      // A document another version wrote, or a truncated one: the next run rewrites it.
      return ItemRuns.empty();
    }
  }

  private void write(String item, ItemRuns runs) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("item", item);
    Map<String, Object> tables = new LinkedHashMap<>();
    runs.tables().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> tables.put(e.getKey(), toMap(e.getValue())));
    doc.put("tables", tables);
    doc.put("authored", runs.authored().map(LastTestRuns::toMap).orElse(null));
    Path path = new Path(location(item));
    Path partial = new Path(path.getParent(), "." + FILE + ".writing");
    try {
      FileSystem fs = path.getFileSystem(conf);
      fs.mkdirs(path.getParent());
      try (OutputStream out = fs.create(partial, true)) {
        out.write(Json.write(doc).getBytes(StandardCharsets.UTF_8));
      }
      // Readers see the old document or the new one, never half of one.
      fs.delete(path, false);
      if (!fs.rename(partial, path)) {
        throw new IOException("rename of " + partial + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the last test results to " + path, e);
    }
  }

  private static Map<String, Object> toMap(Run run) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("run_at", run.runAt().toString());
    m.put("tests", run.results().stream().map(DataTestResult::toMap).toList());
    return m;
  }

  private static ItemRuns parse(JsonNode doc) {
    Map<String, Run> tables = new LinkedHashMap<>();
    doc.path("tables").fields().forEachRemaining(e -> tables.put(e.getKey(), run(e.getValue())));
    JsonNode authored = doc.path("authored");
    return new ItemRuns(
        tables, authored.isObject() ? Optional.of(run(authored)) : Optional.empty());
  }

  @SuppressWarnings("unchecked")
  private static Run run(JsonNode node) {
    List<DataTestResult> results = new ArrayList<>();
    for (JsonNode t : node.path("tests")) {
      List<Map<String, Object>> sample = new ArrayList<>();
      for (JsonNode row : t.path("sample")) {
        sample.add((Map<String, Object>) Json.plain(row));
      }
      results.add(
          new DataTestResult(
              t.path("test_id").asText(),
              t.path("table_id").asText(),
              t.path("kind").asText(),
              t.path("severity").asText(),
              t.path("status").asText(),
              t.path("violations").asLong(),
              sample,
              t.path("message").isTextual() ? t.path("message").asText() : null));
    }
    return new Run(Instant.parse(node.path("run_at").asText()), results);
  }
}
