package io.weaver.cli;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.findings.SourcePos;
import io.weaver.json.Json;
import io.weaver.json.PlainRows;
import io.weaver.metadata.SqlProgram;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.sql.SqlBodyAnalyzer;
import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlStatement;
import io.weaver.session.WeaverConf;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

/** {@code weaver history}, {@code describe} and {@code sql}: looking at what is there. */
final class InspectCommands {
  /** Rows printed by {@code sql} at most; the command shows results, it does not export data. */
  static final int MAX_ROWS = 1000;

  private InspectCommands() {}

  static int history(CliArgs args, PrintStream out, PrintStream err) {
    return new SessionSupport(args, out, err).checked(checked -> history(checked, out));
  }

  private static int history(SessionSupport.Checked checked, PrintStream out) {
    CliArgs args = checked.args();
    WeaverWorkspace weaver = checked.open();
    int limit = Integer.parseInt(args.value("--limit").orElse("20"));
    Scope scope = checked.support().scope();
    Dataset<Row> all = null;
    for (String item : checked.model().items()) {
      Catalogue catalogue = new Catalogue(weaver.spark(), weaver.layout(), item);
      Dataset<Row> rows =
          catalogue
              .read(CatalogueTable.LOAD_HISTORY)
              .withColumn(
                  "table_id",
                  functions.concat(functions.lit(item + "."), functions.col("table_id")));
      all = all == null ? rows : all.unionByName(rows);
    }
    List<Map<String, Object>> loads = new ArrayList<>();
    if (all != null) {
      if (scope.table().isPresent()) {
        String suffix = "." + scope.table().get().tableId();
        all = all.where(functions.col("table_id").endsWith(suffix));
      }
      for (Row r : all.orderBy(functions.col("load_id").desc()).limit(limit).collectAsList()) {
        loads.add(PlainRows.row(r));
      }
    }
    if (checked.json()) {
      out.println(Json.write(Map.of("loads", loads)));
    } else {
      for (Map<String, Object> r : loads) {
        out.printf(
            "%s %-10s %-36s +%s ~%s -%s v%s %s%n",
            r.get("load_id"),
            r.get("status"),
            r.get("table_id"),
            r.get("rows_inserted"),
            r.get("rows_updated"),
            r.get("rows_deleted"),
            r.get("delta_version"),
            r.get("message") == null ? "" : r.get("message"));
      }
    }
    return WeaverCli.OK;
  }

  static int describe(CliArgs args, PrintStream out, PrintStream err) {
    SessionSupport support = new SessionSupport(args, out, err);
    if (args.value("--table").isEmpty()) {
      throw new UsageException("describe needs --table Item.Schema.Object");
    }
    return support.checked(checked -> describe(checked, out, err));
  }

  private static int describe(SessionSupport.Checked checked, PrintStream out, PrintStream err) {
    CliArgs args = checked.args();
    Scope scope = checked.support().scope();
    Optional<TableDeclaration> found =
        checked.model().tables().stream().filter(scope.filter()).findFirst();
    if (found.isEmpty()) {
      err.println("weaver: no Table " + args.value("--table").get() + " in the workspace");
      return WeaverCli.FAILED;
    }
    TableDeclaration t = found.get();
    WeaverWorkspace weaver = checked.open();
    Catalogue catalogue = new Catalogue(weaver.spark(), weaver.layout(), t.item());
    Map<String, Object> doc = new LinkedHashMap<>();
    Map<String, Object> table = new LinkedHashMap<>();
    table.put("table_id", t.qualifiedName());
    table.put("source_path", t.source().relativePath());
    table.put("form", t.source().form().word());
    table.put("description", t.description());
    table.put("primary_key", t.primaryKey().map(k -> k.columns()).orElse(List.of()));
    table.put("incremental", t.incremental());
    table.put("deletes", t.primaryKey().isPresent() ? t.deletes().word() : null);
    table.put("sequence_column", t.sequenceColumn().orElse(null));
    table.put(
        "built",
        catalogue.exists(CatalogueTable.TABLE_DICTIONARY)
            && catalogue
                    .readFor(CatalogueTable.TABLE_DICTIONARY, "table_id", t.tableId().toString())
                    .count()
                > 0);
    doc.put("table", table);
    List<Map<String, Object>> columns = new ArrayList<>();
    catalogue
        .readFor(CatalogueTable.COLUMN_DICTIONARY, "table_id", t.tableId().toString())
        .orderBy("ordinal")
        .collectAsList()
        .forEach(r -> columns.add(PlainRows.row(r)));
    doc.put("columns", columns);
    List<Map<String, Object>> state = new ArrayList<>();
    catalogue
        .readFor(CatalogueTable.LOAD_STATE, "table_id", t.tableId().toString())
        .collectAsList()
        .forEach(r -> state.add(PlainRows.row(r)));
    doc.put("load_state", state.isEmpty() ? null : state.get(0));
    if (checked.json()) {
      out.println(Json.write(doc));
    } else {
      table.forEach((k, v) -> out.println(k + ": " + v));
      out.println("columns:");
      columns.forEach(
          c ->
              out.printf(
                  "  %-24s %-16s %s %s%n",
                  c.get("column_name"),
                  c.get("data_type"),
                  Boolean.TRUE.equals(c.get("nullable")) ? "null" : "not null",
                  c.get("managed_role") == null ? "" : "(" + c.get("managed_role") + ")"));
      out.println("load_state: " + doc.get("load_state"));
    }
    return WeaverCli.OK;
  }

  static int sql(CliArgs args, PrintStream out, PrintStream err) {
    if (args.positional.size() != 1) {
      throw new UsageException(
          "sql needs one argument: the statements, e.g. weaver sql \"SELECT * FROM Item.Schema.Object\"");
    }
    return new SessionSupport(args, out, err).checked(checked -> sql(checked, out, err));
  }

  private static int sql(SessionSupport.Checked checked, PrintStream out, PrintStream err) {
    WeaverWorkspace weaver = checked.open();
    weaver.spark().conf().set(WeaverConf.WORKSPACE, checked.support().workspace.toString());
    String text = checked.args().positional.get(0);
    var analysis = SqlBodyAnalyzer.analyze(text, SqlDialect.SPARK, 1, 1);
    if (analysis.syntaxError().isPresent()) {
      err.println("weaver: " + analysis.syntaxError().get().getMessage());
      return WeaverCli.FAILED;
    }
    TableBody.Sql body = new TableBody.Sql(text, new SourcePos(1, 1), SqlDialect.SPARK, analysis);
    List<String> statements = new ArrayList<>();
    for (SqlStatement s : analysis.statements()) {
      statements.add(SqlProgram.text(body, s));
    }
    Dataset<Row> last = null;
    try {
      for (String statement : statements) {
        last = weaver.spark().sql(statement);
      }
    } catch (Exception e) {
      err.println("weaver: SQL failed: " + e.getMessage());
      return WeaverCli.FAILED;
    }
    if (last == null) {
      return WeaverCli.OK;
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    last.limit(MAX_ROWS).collectAsList().forEach(r -> rows.add(PlainRows.row(r)));
    List<String> columns = List.of(last.columns());
    if (checked.json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("columns", columns);
      doc.put("rows", rows);
      out.println(Json.write(doc));
    } else {
      out.println(String.join("\t", columns));
      rows.forEach(
          r ->
              out.println(
                  String.join(
                      "\t",
                      r.values().stream()
                          .map(
                              v ->
                                  v == null
                                      ? "NULL"
                                      : v instanceof Map || v instanceof List
                                          ? Json.write(v)
                                          : v.toString())
                          .toList())));
    }
    return WeaverCli.OK;
  }
}
