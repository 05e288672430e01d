package io.weaver.cli;

import io.weaver.api.Scope;
import io.weaver.json.Json;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.session.ConfLayer;
import io.weaver.session.WeaverYaml;
import io.weaver.warehouse.Batch;
import io.weaver.warehouse.CatalogueDdl;
import io.weaver.warehouse.DmlForm;
import io.weaver.warehouse.TsqlNames;
import io.weaver.warehouse.WarehouseEndpoint;
import io.weaver.warehouse.WarehouseScript;
import io.weaver.warehouse.WarehouseTable;
import io.weaver.workspace.Target;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code weaver tsql [--item I] [--table T] [--out DIR]}: the T-SQL Build would install for the
 * Warehouse Tables in scope — the item's catalogue, each Table's schema, table, key constraints,
 * row history, load and restore procedures and its catalogue rows ({@code _.LoadState} included,
 * which the load procedure needs) — without connecting anywhere, for review or for deploying by
 * hand (docs/warehouse.md). Needs each Table's declared {@code Schema} (with an inferred shape only
 * the endpoint knows the columns). Printed as batches, or with {@code --out} written one file per
 * batch under {@code DIR/<Item>/}. No Spark session is started.
 */
final class TsqlCommand {
  private TsqlCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    return SessionSupport.scoped(args, out, err, (checked, scope) -> write(checked, scope, out));
  }

  private static int write(SessionSupport.Checked checked, Scope scope, PrintStream out) {
    ConfLayer settings = WeaverYaml.read(checked.model().root());
    Map<String, List<Batch>> byItem = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    WorkspaceDependencies graph = WorkspaceDependencies.of(checked.model());
    Instant now = Instant.now();
    for (TableDeclaration t : checked.model().tables()) {
      if (t.target() != Target.WAREHOUSE || !scope.filter().test(t)) {
        continue;
      }
      var table = WarehouseTable.declared(t);
      if (table.isEmpty()) {
        problems.add(
            t.qualifiedName()
                + ": no Schema declared, so only the endpoint knows its columns; declare Schema or"
                + " run build with spark.weaver.item."
                + t.item()
                + ".jdbcUrl set");
        continue;
      }
      String dmlKey = WarehouseEndpoint.key(t.item(), "warehouseDml");
      DmlForm form =
          settings.get(dmlKey).map(v -> DmlForm.parse(dmlKey, v)).orElse(DmlForm.UPDATE_INSERT);
      List<Batch> batches =
          byItem.computeIfAbsent(t.item(), item -> new ArrayList<>(CatalogueDdl.all()));
      for (Batch b :
          WarehouseScript.build(checked.model(), table.get(), graph.edgesOf(t), form, now)) {
        batches.add(new Batch(t.tableId() + "-" + b.name(), b.sql()));
      }
    }
    if (byItem.isEmpty() && problems.isEmpty()) {
      throw new UsageException("no Warehouse Table in scope");
    }
    var outDir = checked.args().value("--out");
    List<String> files = new ArrayList<>();
    if (outDir.isPresent()) {
      byItem.forEach(
          (item, batches) -> {
            Path folder = Path.of(outDir.get()).resolve(item).toAbsolutePath().normalize();
            for (int i = 0; i < batches.size(); i++) {
              Path file =
                  folder.resolve(String.format("%03d-%s.sql", i + 1, batches.get(i).name()));
              write(file, batches.get(i).sql());
              files.add(file.toString());
            }
          });
    }
    if (checked.json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      Map<String, Object> items = new LinkedHashMap<>();
      byItem.forEach(
          (item, batches) ->
              items.put(
                  item,
                  batches.stream().map(b -> Map.of("name", b.name(), "sql", b.sql())).toList()));
      doc.put("items", items);
      doc.put("files", files);
      doc.put("problems", problems);
      out.println(Json.write(doc));
    } else if (outDir.isPresent()) {
      out.println(
          "tsql: "
              + files.size()
              + " batch file(s) under "
              + Path.of(outDir.get()).toAbsolutePath().normalize());
      problems.forEach(p -> out.println("tsql: " + p));
    } else {
      byItem.forEach(
          (item, batches) -> {
            for (Batch b : batches) {
              out.println("-- " + TsqlNames.comment(item + ": " + b.name()) + " (one batch)");
              out.println(b.sql().strip());
              out.println();
            }
          });
      problems.forEach(p -> out.println("-- " + TsqlNames.comment(p)));
    }
    return problems.isEmpty() ? WeaverCli.OK : WeaverCli.FAILED;
  }

  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}
