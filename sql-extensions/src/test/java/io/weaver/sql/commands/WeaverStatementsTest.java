package io.weaver.sql.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.WeaverWorkspace;
import io.weaver.load.StagingProvider;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Weaver's statements and DML guards end to end, in one real Spark + Delta session. */
class WeaverStatementsTest {
  private static final AtomicInteger ITEMS = new AtomicInteger();
  private static final String KEYED =
      "Primary key: id\nStability row threshold: 0\nDelete percentage threshold: 100\n"
          + "Update percentage threshold: 100\n";

  private static SparkSession spark;

  @TempDir Path workspace;
  private String item;

  @BeforeAll
  static void start() {
    spark = SqlSession.get();
  }

  @AfterAll
  static void stop() {
    SqlSession.stop();
  }

  @BeforeEach
  void useWorkspace() {
    item = "Stmt" + ITEMS.incrementAndGet();
    spark.conf().set("spark.weaver.workspace", workspace.toString());
  }

  private void sqlTable(String id, String header, String body) throws IOException {
    WorkspaceFiles.sqlTable(workspace, item, id, header, body);
  }

  private void pythonTable(String id) throws IOException {
    WorkspaceFiles.write(
        workspace,
        "Lakehouse/" + item + "/Tables/" + id.replace(".", "__") + ".py",
        "\"\"\"\nTable ID: "
            + id
            + "\n\nDescription: A Python table.\n\nSchema:\n  id: int\n  name: string\n\n"
            + "Primary key: id\n\nSequence column: name\n\"\"\"\nfrom weaver import Table\n\n\nclass "
            + id.replace(".", "__")
            + "(Table):\n"
            + "    def read(self):\n        return None\n");
  }

  private String path(String id) {
    return workspace
        .resolve(".weaver/lakehouse/" + item + "/Tables/" + id.replace('.', '/'))
        .toString();
  }

  private static List<Row> sql(String text) {
    return spark.sql(text).collectAsList();
  }

  private static AnalysisException refused(String text) {
    return assertThrows(AnalysisException.class, () -> spark.sql(text));
  }

  @Test
  void buildLoadShowAndDescribeRunTheEngine() throws IOException {
    sqlTable("A.Site", KEYED, "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    pythonTable("A.Py");
    String site = item + ".A.Site";

    AnalysisException notBuilt = refused("DESCRIBE WEAVER TABLE " + site);
    assertTrue(notBuilt.getMessage().contains("BUILD WEAVER TABLE " + site), notBuilt.getMessage());
    assertEquals("WEAVER_TABLE_NOT_BUILT", notBuilt.getCondition());
    assertEquals("42P01", notBuilt.getSqlState());
    assertEquals(
        Map.of("message", notBuilt.getMessage(), "table", site), notBuilt.getMessageParameters());

    var build = spark.sql("BUILD WEAVER ITEM " + item);
    assertEquals(List.of("table_id", "action", "message"), List.of(build.columns()));
    List<Row> built = build.collectAsList();
    assertEquals(2, built.size(), built.toString());
    assertTrue(built.stream().allMatch(r -> r.getString(1).equals("created")), built.toString());

    // PLAN WEAVER: what a load would do, in rows, nothing written (docs/plan.md).
    long versionBeforePlan = sql("DESCRIBE HISTORY " + site).get(0).getLong(0);
    var plan = spark.sql("PLAN WEAVER TABLE " + site);
    assertEquals(
        List.of(
            "table_id",
            "build_action",
            "build_message",
            "load_status",
            "rows_inserted",
            "rows_updated",
            "rows_deleted",
            "rows_revived",
            "rows_unchanged",
            "rows_rejected",
            "target_live_rows_before",
            "target_live_rows_after",
            "delta_version",
            "gates",
            "rejections",
            "message",
            "warnings",
            "notes",
            "rows_quarantined",
            "rows_stale",
            "expectations",
            "history_versions"),
        List.of(plan.columns()));
    Row planned = plan.first();
    assertTrue(planned.isNullAt(21), "a Table without History plans no history versions");
    assertEquals("unchanged", planned.getString(1), planned.toString());
    assertEquals("succeeded", planned.getString(3), planned.toString());
    assertEquals(2L, planned.getLong(4), planned.toString());
    assertEquals(2L, planned.getList(13).size(), "the delete and update gates");
    assertEquals(versionBeforePlan, sql("DESCRIBE HISTORY " + site).get(0).getLong(0));
    assertEquals(0L, sql("SELECT count(*) FROM " + site).get(0).getLong(0), "a plan loads nothing");

    var load = spark.sql("LOAD WEAVER TABLE " + site);
    assertEquals(
        List.of(
            "load_id",
            "table_id",
            "status",
            "rows_inserted",
            "rows_updated",
            "rows_deleted",
            "rows_revived",
            "rows_unchanged",
            "rows_rejected",
            "target_live_rows_before",
            "target_live_rows_after",
            "delta_version",
            "gates_waived",
            "duration_ms",
            "message",
            "warnings",
            "rows_quarantined",
            "rows_stale",
            "expectations"),
        List.of(load.columns()));
    Row loaded = load.first();
    assertEquals("succeeded", loaded.getString(2), loaded.toString());
    assertEquals(site, loaded.getString(1));
    assertEquals(2L, loaded.getLong(3));
    assertEquals(2L, sql("SELECT count(*) FROM " + site).get(0).getLong(0));

    // A Python Table from SQL: a row that says how to load it, not an exception.
    Row py = sql("LOAD WEAVER TABLE " + item + ".A.Py").get(0);
    assertEquals("skipped", py.getString(2));
    assertTrue(py.getString(14).contains("weaver.Workspace(spark, path).load("), py.toString());

    List<Row> itemLoad = sql("LOAD WEAVER ITEM " + item + " WAIVE STABILITY GATES");
    assertEquals(2, itemLoad.size(), itemLoad.toString());
    Row again = itemLoad.stream().filter(r -> r.getString(1).equals(site)).findFirst().get();
    assertEquals(2L, again.getLong(7)); // unchanged
    assertTrue(again.getBoolean(12)); // gates waived

    var show = spark.sql("SHOW WEAVER TABLES IN " + item);
    assertEquals(
        List.of(
            "item",
            "table_id",
            "form",
            "target",
            "primary_key",
            "incremental",
            "deletes",
            "sequence_column",
            "built",
            "built_at",
            "last_load_id",
            "last_status",
            "last_delta_version",
            "published_version"),
        List.of(show.columns()));
    List<Row> tables = show.collectAsList();
    assertEquals(2, tables.size());
    Row siteRow = tables.stream().filter(r -> r.getString(1).equals(site)).findFirst().get();
    assertEquals("sparksql", siteRow.getString(2));
    assertEquals(
        siteRow.getList(siteRow.fieldIndex("primary_key")).isEmpty() ? null : "soft",
        siteRow.getAs("deletes"),
        "the default deletion mode: " + siteRow);
    assertNull(siteRow.getAs("sequence_column"), "not declared: " + siteRow);
    Row pyRow =
        tables.stream().filter(r -> r.getString(1).equals(item + ".A.Py")).findFirst().get();
    assertEquals("name", pyRow.getAs("sequence_column"), pyRow.toString());
    assertTrue(siteRow.<Boolean>getAs("built"));
    assertEquals(again.getString(0), siteRow.getAs("last_load_id"));
    assertEquals("succeeded", siteRow.getAs("last_status"));

    List<Row> columns = sql("DESCRIBE WEAVER TABLE " + site);
    List<String> names = new ArrayList<>();
    columns.forEach(r -> names.add(r.getString(0)));
    assertEquals(
        List.of(
            "id",
            "name",
            "row_insert_datetime",
            "row_update_datetime",
            "row_delete_datetime",
            "row_signature"),
        names);
    assertEquals("row_signature", columns.get(5).getString(4));

    List<Row> loads = sql("SHOW WEAVER LOADS FOR " + site + " LIMIT 1");
    assertEquals(1, loads.size());
    assertEquals(again.getString(0), loads.get(0).getString(0)); // newest first
    assertEquals(site, loads.get(0).getString(1));
    assertEquals(4, sql("SHOW WEAVER LOADS").size());

    List<Row> tests = sql("TEST WEAVER TABLE " + site);
    assertEquals(1, tests.size(), tests.toString());
    assertEquals("A.Site:primary-key", tests.get(0).getString(0));
    assertEquals("passed", tests.get(0).getString(4));
    assertEquals(0L, tests.get(0).getLong(5));

    AnalysisException unknown = refused("LOAD WEAVER TABLE " + item + ".A.Nope");
    assertTrue(unknown.getMessage().contains("A.Nope"), unknown.getMessage());
    assertEquals("WEAVER_TABLE_NOT_FOUND", unknown.getCondition(), unknown.getMessage());
    assertEquals("42P01", unknown.getSqlState());
    assertEquals(item + ".A.Nope", unknown.getMessageParameters().get("table"));
    ParseException syntax =
        assertThrows(ParseException.class, () -> spark.sql("LOAD WEAVER TABEL " + site));
    assertTrue(syntax.getMessage().contains("TABEL"), syntax.getMessage());
    assertTrue(syntax.getMessage().contains("pos"), syntax.getMessage());
    assertEquals("PARSE_SYNTAX_ERROR", syntax.getCondition());
  }

  /** Row expectations in the statements' rows: PLAN, LOAD and SHOW WEAVER LOADS. */
  @Test
  void expectationCountsReachPlanLoadAndShowRows() throws IOException {
    sqlTable(
        "A.Parcel",
        KEYED
            + "Expectations:\n  positive weight:\n    rule: weight > 0\n"
            + "    on violation: quarantine\n  named:\n    rule: name is not null\n"
            + "    on violation: warn\n",
        "select id, name, weight from values (1, 'a', 5), (2, null, 0), (3, null, 7)"
            + " as t(id, name, weight);\n");
    String parcel = item + ".A.Parcel";
    sql("BUILD WEAVER TABLE " + parcel);

    Row planned = sql("PLAN WEAVER TABLE " + parcel).get(0);
    assertEquals(1L, planned.getLong(planned.fieldIndex("rows_quarantined")), planned.toString());

    Row loaded = sql("LOAD WEAVER TABLE " + parcel).get(0);
    assertEquals("succeeded", loaded.getString(2), loaded.toString());
    assertEquals(2L, loaded.getLong(loaded.fieldIndex("rows_inserted")));
    assertEquals(1L, loaded.getLong(loaded.fieldIndex("rows_quarantined")));
    List<Row> counted = loaded.getList(loaded.fieldIndex("expectations"));
    assertEquals(
        List.of("positive weight/quarantine/1", "named/warn/2"),
        counted.stream()
            .map(c -> c.getString(0) + "/" + c.getString(1) + "/" + c.getLong(2))
            .toList());
    assertEquals(
        List.of("{\"id\":2}", "{\"id\":3}"),
        counted.get(1).getList(3).stream().map(String::valueOf).sorted().toList());
    assertEquals(
        counted.stream().map(c -> c.getString(0) + "=" + c.getLong(2)).toList(),
        planned.<Row>getList(planned.fieldIndex("expectations")).stream()
            .map(c -> c.getString(0) + "=" + c.getLong(2))
            .toList(),
        "the plan predicts the load's counts");

    Row shown = sql("SHOW WEAVER LOADS FOR " + parcel + " LIMIT 1").get(0);
    assertEquals(loaded.getString(0), shown.getString(0));
    assertEquals(
        List.of("named/warn/2", "positive weight/quarantine/1"),
        shown.<Row>getList(shown.fieldIndex("expectations")).stream()
            .map(c -> c.getString(0) + "/" + c.getString(1) + "/" + c.getLong(2))
            .toList());
  }

  @Test
  void dmlGuardsRefuseManagedColumnsAndMissingWhere() throws IOException {
    sqlTable(
        "A.Site",
        KEYED,
        "select id, name from values (1, 'a'), (2, 'b'), (3, 'c') as t(id, name);\n");
    sql("BUILD WEAVER");
    sql("LOAD WEAVER TABLE " + item + ".A.Site");
    String site = item + ".A.Site";

    AnalysisException managed =
        refused("UPDATE " + site + " SET row_insert_datetime = current_timestamp() WHERE id = 1");
    assertTrue(managed.getMessage().contains("row_insert_datetime"), managed.getMessage());
    assertTrue(managed.getMessage().contains(site), managed.getMessage());
    assertEquals("WEAVER_DML_MANAGED_COLUMNS", managed.getCondition());
    Map<String, String> parameters = new java.util.HashMap<>(managed.getMessageParameters());
    // Spark's re-wrapping appends the plan to getMessage(); the parameter is the message thrown.
    assertTrue(managed.getMessage().startsWith(parameters.remove("message")), managed.getMessage());
    assertEquals(
        Map.of("table", site, "operation", "UPDATE", "column", "row_insert_datetime"), parameters);
    AnalysisException delete = refused("DELETE FROM " + site);
    assertTrue(delete.getMessage().contains("WHERE"), delete.getMessage());
    assertTrue(delete.getMessage().contains(site), delete.getMessage());
    // The class survives Spark's re-wrapping of a check rule's error; its SQLSTATE does not
    // (docs/errors.md).
    assertEquals("WEAVER_DML_WITHOUT_WHERE", delete.getCondition());
    assertEquals("DELETE", delete.getMessageParameters().get("operation"));
    refused("UPDATE " + site + " SET name = 'x'");
    refused("DELETE FROM delta.`" + path("A.Site") + "`");
    AnalysisException merge =
        refused(
            "MERGE INTO "
                + site
                + " t USING (SELECT 1 AS id) s ON t.id = s.id"
                + " WHEN MATCHED THEN UPDATE SET t.row_update_datetime = current_timestamp()");
    assertTrue(merge.getMessage().contains("row_update_datetime"), merge.getMessage());
    assertEquals(3L, sql("SELECT count(*) FROM " + site).get(0).getLong(0)); // nothing written

    // Business columns with a WHERE are fine.
    sql("UPDATE " + site + " SET name = 'z' WHERE id = 3");
    sql(
        "MERGE INTO "
            + site
            + " t USING (SELECT 1 AS id) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET t.name = 'y'");
    sql("DELETE FROM " + site + " WHERE id = 2");
    assertEquals(2L, sql("SELECT count(*) FROM " + site).get(0).getLong(0));

    // Weaver's own writes still pass: the load puts back what the staging says.
    Row load = sql("LOAD WEAVER TABLE " + site).get(0);
    assertEquals("succeeded", load.getString(2), load.toString());
    assertEquals(1L, load.getLong(3)); // id 2 inserted again
    // Ids 1 and 3 count as unchanged: a user UPDATE of business columns leaves row_signature as it
    // was, so the load compares against the signature of the values it last wrote.
    assertEquals(3L, sql("SELECT count(*) FROM " + site).get(0).getLong(0));
  }

  @Test
  void restoreThenLoadIsAsIfTheLaterLoadsNeverHappened() throws IOException {
    sqlTable("A.Site", KEYED, "select id, name from values (1, 'a') as t(id, name);\n");
    sql("BUILD WEAVER");
    String site = item + ".A.Site";
    WeaverWorkspace weaver =
        new WeaverWorkspace(
            spark, workspace, workspace.resolve(".weaver/lakehouse").toString(), m -> {});
    List<Optional<String>> seenBookmarks = new ArrayList<>();
    LoadResult first = load(weaver, site, "(1, 'a'), (2, 'b')", "b1", seenBookmarks);
    LoadResult second = load(weaver, site, "(1, 'a2'), (3, 'c')", "b2", seenBookmarks);
    assertEquals(LoadStatus.SUCCEEDED, second.status(), second.message());
    assertEquals(1, second.rowsDeleted());

    AnalysisException unknown = refused("RESTORE WEAVER TABLE " + site + " TO LOAD 'nope'");
    assertTrue(unknown.getMessage().contains("'nope'"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains(site), unknown.getMessage());

    Row restored = sql("RESTORE WEAVER TABLE " + site + " TO LOAD '" + first.loadId() + "'").get(0);
    assertEquals(first.loadId(), restored.getString(2));
    assertEquals(first.deltaVersion(), restored.getLong(3));
    assertEquals("b1", restored.getString(5));
    Row state = sql("SELECT * FROM " + item + "._.LoadState").get(0);
    assertEquals(first.loadId(), state.getString(1));
    assertEquals(first.loadTimestamp(), state.getTimestamp(2).toInstant());
    assertEquals(restored.getLong(4), state.getLong(3));
    assertEquals("b1", state.getString(4));
    assertEquals(2L, state.getLong(5)); // the sequence only grows
    Row newest = sql("SHOW WEAVER LOADS FOR " + site + " LIMIT 1").get(0);
    assertEquals("restored", newest.getString(2));

    // The next load sees the state after the first load: same rows, same bookmark.
    LoadResult third = load(weaver, site, "(1, 'a'), (2, 'b'), (4, 'd')", "b3", seenBookmarks);
    assertEquals(LoadStatus.SUCCEEDED, third.status(), third.message());
    assertEquals(Optional.of("b1"), seenBookmarks.get(2));
    assertEquals(1, third.rowsInserted());
    assertEquals(2, third.rowsUnchanged());
    assertEquals(0, third.rowsUpdated() + third.rowsDeleted() + third.rowsRevived());
    assertEquals(2, third.targetLiveRowsBefore());
    List<Row> rows =
        sql(
            "SELECT id, name, row_insert_datetime, row_delete_datetime FROM "
                + site
                + " ORDER BY id");
    assertEquals(List.of(1, 2, 4), rows.stream().map(r -> r.getInt(0)).toList());
    assertEquals(first.loadTimestamp(), rows.get(0).getTimestamp(2).toInstant());
    assertEquals(first.loadTimestamp(), rows.get(1).getTimestamp(2).toInstant());
    Row after = sql("SELECT * FROM " + item + "._.LoadState").get(0);
    assertEquals(third.loadId(), after.getString(1));
    assertEquals("b3", after.getString(4));
    assertEquals(3L, after.getLong(5));
    assertFalse(sql("DESCRIBE HISTORY " + site).isEmpty());
  }

  /** A load of {@code rows} with a new bookmark, through the engine's staging hook. */
  private static LoadResult load(
      WeaverWorkspace weaver,
      String table,
      String rows,
      String bookmark,
      List<Optional<String>> seen) {
    StagingProvider staging =
        (t, context) -> {
          seen.add(context.bookmark());
          return new StagingProvider.Staging(
              spark.sql("select id, name from values " + rows + " as t(id, name)"),
              Optional.empty(),
              Optional.of(bookmark));
        };
    LoadResult result = weaver.loadWith(table, false, staging).get(0);
    assertEquals(LoadStatus.SUCCEEDED, result.status(), result.message());
    return result;
  }

  private static int weaverRead(String table, boolean unpublished) {
    return spark
        .read()
        .format("weaver")
        .option("unpublished", Boolean.toString(unpublished))
        .load(table)
        .first()
        .<Integer>getAs("v");
  }

  /**
   * {@code publish: together} as a notebook meets it (docs/table-contract.md, "Item publish"):
   * reads by name, with live rows, see the item's publish; a Table's own load waits for the next
   * one; PUBLISH, SHOW PUBLISHES and RESTORE … TO PUBLISH.
   */
  @Test
  void anItemThatPublishesTogetherIsReadAtItsPublish() throws IOException {
    String source = workspace.resolve("source").toString();
    spark.sql("select 1 as id, 10 as v").write().format("delta").save(source);
    sqlTable("A.Orders", KEYED, "select id, v from delta.`" + source + "`;\n");
    sqlTable("A.Totals", KEYED, "select id, v * 2 as v2 from A.Orders;\n");
    String orders = item + ".A.Orders";
    String totals = item + ".A.Totals";
    String publishKey = "spark.weaver.item." + item + ".publish";
    spark.conf().set(publishKey, "together");
    try {
      sql("BUILD WEAVER ITEM " + item);
      sql("LOAD WEAVER ITEM " + item);
      String first = sql("SHOW WEAVER PUBLISHES FOR " + item).get(0).getString(0);
      assertEquals(
          List.of("A.Orders", "A.Totals"),
          sql("SHOW WEAVER PUBLISHES FOR " + item + " LIMIT 1").stream()
              .map(r -> r.getString(4))
              .toList());
      assertEquals(
          List.of("load", "load", "first", "first"),
          sql("SHOW WEAVER PUBLISHES FOR " + item).stream().map(r -> r.getString(2)).toList(),
          "before the first load commits, the item publishes its Tables as Build left them");
      String join = "select o.v, t.v2 from " + orders + " o join " + totals + " t on o.id = t.id";
      assertEquals("[[10,20]]", sql(join).toString());
      Row shown = sql("SHOW WEAVER TABLES IN " + item).get(0);
      assertEquals(orders, shown.getString(1));
      assertEquals(shown.getLong(12), shown.getLong(13), "published: the latest version");

      // A Table's own load commits and waits for the item's next publish.
      spark.sql("select 1 as id, 11 as v").write().format("delta").mode("overwrite").save(source);
      Row loaded = sql("LOAD WEAVER TABLE " + orders).get(0);
      assertEquals("succeeded", loaded.getString(2));
      assertTrue(
          loaded.getList(15).toString().contains("committed, not published"),
          loaded.getList(15).toString());
      assertEquals("[[10,20]]", sql(join).toString());
      assertEquals(10, spark.table(orders).first().<Integer>getAs("v"));
      assertEquals(
          11,
          spark.read().format("delta").load(path("A.Orders")).first().<Integer>getAs("v"),
          "by path, the latest version");

      assertEquals(10, weaverRead(orders, false), "format(\"weaver\"): the publish");
      assertEquals(11, weaverRead(orders, true), "option unpublished: the latest version");

      Row published = sql("PUBLISH WEAVER ITEM " + item).get(0);
      assertTrue(published.getBoolean(3), published.toString());
      assertEquals("[[11,20]]", sql(join).toString());
      assertEquals(11, weaverRead(orders, false), "a read outside a query sees the new publish");
      assertFalse(sql("PUBLISH WEAVER ITEM " + item).get(0).getBoolean(3), "nothing new");

      // Back to the first publish: Orders restored to its load, Totals untouched, published.
      List<Row> restored = sql("RESTORE WEAVER ITEM " + item + " TO PUBLISH '" + first + "'");
      assertEquals(
          List.of(orders + " restored", totals + " unchanged"),
          restored.stream().map(r -> r.getString(0) + " " + r.getString(1)).toList());
      assertEquals("[[10,20]]", sql(join).toString());
      Row newest = sql("SHOW WEAVER PUBLISHES FOR " + item + " LIMIT 1").get(0);
      assertEquals("restore", newest.getString(2));
      assertEquals(restored.get(0).getString(4), newest.getString(0));
      AnalysisException unknown = refused("RESTORE WEAVER ITEM " + item + " TO PUBLISH 'nope'");
      assertTrue(unknown.getMessage().contains("SHOW WEAVER PUBLISHES"), unknown.getMessage());
    } finally {
      spark.conf().unset(publishKey);
    }
  }
}
