package io.weaver.sql.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.catalyst.rules.ShowLiveRows;
import io.weaver.sql.commands.WeaverLoadException;
import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DataFrame API contract (docs/table-contract.md, "DataFrame API") end to end in one real Spark
 * + Delta session: live rows on reads by name and every row on reads by path, the {@code weaver}
 * data source (includeDeleted, minVersion), appends as loads, refused overwrites, Delta's own
 * features on a Weaver table. The DataFrame load at size equal to LOAD WEAVER TABLE is {@link
 * DataFrameLoadAtSizeTest} (a class of its own, so that it runs beside this one in the second test
 * JVM).
 */
class DataFrameApiTest {
  private static final AtomicInteger ITEMS = new AtomicInteger();
  private static final String KEYED =
      "Primary key: id\nStability row threshold: 0\nDelete percentage threshold: 100\n"
          + "Update percentage threshold: 100\n";
  private static final String LIVE = "9999-12-31";

  private static SparkSession spark;

  @TempDir Path workspace;
  private String item;

  @BeforeAll
  static void start() {
    spark = SqlSession.get();
    spark.conf().set("spark.sql.session.timeZone", "UTC");
  }

  @AfterAll
  static void stop() {
    SqlSession.stop();
  }

  @BeforeEach
  void useWorkspace() {
    item = "Dfa" + ITEMS.incrementAndGet();
    spark.conf().set("spark.weaver.workspace", workspace.toString());
  }

  private void sqlTable(String id, String header, String body) throws IOException {
    WorkspaceFiles.sqlTable(workspace, item, id, header, body);
  }

  private static String values(String rows) {
    return "select id, name from values " + rows + " as t(id, name);\n";
  }

  private String path(String id) {
    return workspace
        .resolve(".weaver/lakehouse/" + item + "/Tables/" + id.replace('.', '/'))
        .toString();
  }

  private static long count(String sql) {
    return spark.sql(sql).first().getLong(0);
  }

  private static Dataset<Row> rows(String values) {
    return spark.sql("select id, name from values " + values + " as t(id, name)");
  }

  private static Dataset<Row> weaver() {
    return spark.read().format("weaver").load(spark.conf().get("weaver.test.table"));
  }

  /** Number of live-row filters in the analysed plan of {@code df}. */
  private static int liveFilters(Dataset<Row> df) {
    return liveFilters(df.queryExecution().analyzed());
  }

  private static int liveFilters(LogicalPlan plan) {
    int n = 0;
    if (plan instanceof Filter f
        && f.condition() instanceof EqualTo eq
        && eq.right() instanceof Literal l
        && Long.valueOf(ShowLiveRows.LIVE_MICROS).equals(l.value())) {
      n++;
    }
    for (LogicalPlan child : scala.jdk.javaapi.CollectionConverters.asJava(plan.children())) {
      n += liveFilters(child);
    }
    return n;
  }

  /** A built table with ids 1, 2 live and id 3 soft-deleted; returns its identity. */
  private String tableWithADeletedRow() throws IOException {
    sqlTable("A.Site", KEYED, values("(1, 'a'), (2, 'b'), (3, 'c')"));
    spark.sql("BUILD WEAVER");
    String site = item + ".A.Site";
    assertEquals("succeeded", spark.sql("LOAD WEAVER TABLE " + site).first().getString(2));
    sqlTable("A.Site", KEYED, values("(1, 'a'), (2, 'b')"));
    Row second = spark.sql("LOAD WEAVER TABLE " + site).first();
    assertEquals("succeeded", second.getString(2), second.toString());
    assertEquals(1L, second.getLong(5)); // id 3 soft-deleted
    spark.conf().set("weaver.test.table", site);
    return site;
  }

  @Test
  void readsByNameShowLiveRowsAndReadsByPathShowEveryRow() throws IOException {
    String site = tableWithADeletedRow();

    assertEquals(2L, count("SELECT count(*) FROM " + site));
    assertEquals(2L, spark.table(site).count());
    assertEquals(2L, spark.read().table(site).count());
    assertEquals(2L, weaver().count());
    // A read by path is Delta's own read: every row.
    assertEquals(3L, count("SELECT count(*) FROM delta.`" + path("A.Site") + "`"));
    assertEquals(3L, spark.read().format("delta").load(path("A.Site")).count());
    assertEquals(3L, DeltaTable.forPath(spark, path("A.Site")).toDF().count());
    assertEquals(0L, spark.table(site).where("id = 3").count());

    assertEquals(3L, count("SELECT count(*) FROM " + site + " WITH ('includeDeleted' = 'true')"));
    assertEquals(
        3L, spark.read().format("weaver").option("includeDeleted", "true").load(site).count());
    assertEquals(3L, spark.read().option("includeDeleted", "true").table(site).count());
    // Time travel by name: the rows live at that version.
    long version = DeltaTable.forPath(spark, path("A.Site")).history(1).first().getLong(0);
    assertEquals(3L, count("SELECT count(*) FROM " + site + " VERSION AS OF " + (version - 1)));
    assertEquals(2L, count("SELECT count(*) FROM " + site + " VERSION AS OF " + version));
    // The current catalog an item catalog: shorter names are names of that item.
    spark.sql("USE " + item + ".A");
    try {
      assertEquals(2L, count("SELECT count(*) FROM Site"));
      assertEquals(2L, count("SELECT count(*) FROM A.Site"));
    } finally {
      spark.sql("USE spark_catalog.default");
    }
    assertEquals(
        1L,
        spark
            .read()
            .format("weaver")
            .option("includeDeleted", "true")
            .load(site)
            .where("row_delete_datetime < timestamp'" + LIVE + " 00:00:00'")
            .count());

    // A view and a join analyse the table again: still one filter per read, never stacked.
    spark.sql("CREATE OR REPLACE TEMP VIEW live_sites AS SELECT * FROM " + site);
    assertEquals(2L, count("SELECT count(*) FROM live_sites"));
    Dataset<Row> once = spark.table(site);
    assertEquals(1, liveFilters(once));
    Dataset<Row> again = once.where("id > 0").select("id", "name");
    assertEquals(1, liveFilters(again));
    assertEquals(2, liveFilters(once.join(spark.table(site), "id")));
    assertEquals(2L, once.join(spark.table(site), "id").count());
  }

  @Test
  void minVersionFailsWhenTheTableHasNotReachedIt() throws IOException {
    String site = tableWithADeletedRow();
    long version = DeltaTable.forPath(spark, path("A.Site")).history(1).first().getLong(0);

    assertEquals(
        2L,
        spark
            .read()
            .format("weaver")
            .option("minVersion", Long.toString(version))
            .load(site)
            .count());
    AnalysisException stale =
        assertThrows(
            AnalysisException.class,
            () ->
                spark
                    .read()
                    .format("weaver")
                    .option("minVersion", Long.toString(version + 1))
                    .load(site));
    assertTrue(stale.getMessage().contains("minVersion=" + (version + 1)), stale.getMessage());
    assertTrue(stale.getMessage().contains("version " + version), stale.getMessage());
    assertTrue(stale.getMessage().contains(site), stale.getMessage());
    // SQL gives the same option as a table option.
    assertThrows(
        AnalysisException.class,
        () ->
            spark.sql("SELECT * FROM " + site + " WITH ('minVersion' = '" + (version + 1) + "')"));
    AnalysisException notANumber =
        assertThrows(
            AnalysisException.class,
            () -> spark.read().format("weaver").option("minVersion", "latest").load(site));
    assertTrue(notANumber.getMessage().contains("whole"), notANumber.getMessage());
    AnalysisException unknown =
        assertThrows(
            AnalysisException.class, () -> spark.read().format("weaver").load(item + ".A.Nope"));
    assertTrue(unknown.getMessage().contains("BUILD WEAVER TABLE"), unknown.getMessage());
    assertThrows(
        AnalysisException.class, () -> spark.read().format("weaver").load("not-an-identity"));
  }

  @Test
  void deltaFeaturesStillWorkOnAWeaverTable() throws IOException {
    String site = tableWithADeletedRow();
    long version = DeltaTable.forPath(spark, path("A.Site")).history(1).first().getLong(0);

    // Time travel: the version before the soft delete had three live rows.
    assertEquals(3L, count("SELECT count(*) FROM " + site + " VERSION AS OF " + (version - 1)));
    assertEquals(2L, count("SELECT count(*) FROM " + site + " VERSION AS OF " + version));
    assertTrue(spark.sql("DESCRIBE HISTORY " + site).count() >= 2);

    // OPTIMIZE rewrites files with every row, deleted ones included.
    spark.sql("OPTIMIZE " + site).collect();
    assertEquals(3L, count("SELECT count(*) FROM " + site + " WITH ('includeDeleted' = 'true')"));
    assertEquals(2L, count("SELECT count(*) FROM " + site));

    // DML targets are the whole table: a DELETE reaches the soft-deleted row.
    spark.sql("DELETE FROM " + site + " WHERE id = 3");
    assertEquals(2L, count("SELECT count(*) FROM " + site + " WITH ('includeDeleted' = 'true')"));
    spark.sql("UPDATE " + site + " SET name = 'bb' WHERE id = 2");
    spark.sql(
        "MERGE INTO "
            + site
            + " t USING (SELECT 1 AS id) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET t.name ="
            + " 'aa'");
    assertEquals(1L, count("SELECT count(*) FROM " + site + " WHERE name = 'aa'"));
    // The DeltaTable API builds DELETE and UPDATE over its own DataFrame, a read by name.
    DeltaTable.forName(spark, site).delete("id = 2");
    assertEquals(1L, count("SELECT count(*) FROM " + site));
    DeltaTable.forName(spark, site)
        .update(
            org.apache.spark.sql.functions.expr("id = 1"),
            java.util.Map.of("name", org.apache.spark.sql.functions.lit("a1")));
    assertEquals(1L, count("SELECT count(*) FROM " + site + " WHERE name = 'a1'"));
    // Delta's MERGE builder needs the physical table (it runs no analysis): DeltaTable.forPath.
    DeltaTable.forPath(spark, path("A.Site"))
        .as("t")
        .merge(rows("(1, 'm')").as("s"), org.apache.spark.sql.functions.expr("t.id = s.id"))
        .whenMatched()
        .updateExpr(java.util.Map.of("name", "s.name"))
        .execute();
    assertEquals(1L, count("SELECT count(*) FROM " + site + " WHERE name = 'm'"));
    spark.sql("RESTORE TABLE " + site + " TO VERSION AS OF " + version);
    assertEquals(3L, count("SELECT count(*) FROM " + site + " WITH ('includeDeleted' = 'true')"));
  }

  @Test
  void appendsAreLoadsAndOverwritesAreRefused() throws Exception {
    sqlTable("A.Site", KEYED, values("(1, 'a')"));
    spark.sql("BUILD WEAVER");
    String site = item + ".A.Site";

    rows("(1, 'a'), (2, 'b')").write().format("weaver").mode("append").save(site);
    assertEquals(2L, spark.table(site).count());
    Row first = spark.sql("SHOW WEAVER LOADS FOR " + site + " LIMIT 1").first();
    assertEquals("succeeded", first.getAs("status"), first.toString());
    assertEquals(2L, (long) first.getAs("rows_inserted"), first.toString());
    assertEquals(
        2L,
        count(
            "SELECT count(*) FROM "
                + site
                + " WHERE row_signature IS NOT NULL AND row_insert_datetime IS NOT NULL"));

    // writeTo().append(): the rows are the new snapshot, so id 2 is soft-deleted.
    rows("(1, 'a'), (3, 'c')").writeTo(site).append();
    assertEquals(2L, spark.table(site).count());
    assertEquals(3L, count("SELECT count(*) FROM " + site + " WITH ('includeDeleted' = 'true')"));
    Row second = spark.sql("SHOW WEAVER LOADS FOR " + site + " LIMIT 1").first();
    assertEquals(1L, (long) second.getAs("rows_inserted"), second.toString());
    assertEquals(1L, (long) second.getAs("rows_deleted"), second.toString());
    assertEquals(1L, (long) second.getAs("rows_unchanged"), second.toString());

    // INSERT INTO returns the load's row.
    Row insert = spark.sql("INSERT INTO " + site + " VALUES (1, 'a'), (3, 'c'), (4, 'd')").first();
    assertEquals("succeeded", insert.getAs("status"), insert.toString());
    assertEquals(1L, (long) insert.getAs("rows_inserted"), insert.toString());
    assertEquals(3L, spark.table(site).count());
    Row byName = spark.sql("INSERT INTO " + site + " BY NAME SELECT 'e' AS name, 5 AS id").first();
    assertEquals(1L, (long) byName.getAs("rows_inserted"), byName.toString());
    assertEquals(1L, spark.table(site).count());

    // Overwrites are refused with what to use instead; nothing is written.
    AnalysisException overwrite =
        assertThrows(
            AnalysisException.class,
            () -> rows("(9, 'z')").write().format("weaver").mode("overwrite").save(site));
    assertTrue(overwrite.getMessage().contains("mode(\"append\")"), overwrite.getMessage());
    assertThrows(
        AnalysisException.class, () -> rows("(9, 'z')").writeTo(site).overwritePartitions());
    assertThrows(
        AnalysisException.class, () -> spark.sql("INSERT OVERWRITE " + site + " VALUES (9, 'z')"));
    Exception errorIfExists =
        assertThrows(Exception.class, () -> rows("(9, 'z')").write().format("weaver").save(site));
    assertTrue(errorIfExists.getMessage().contains("Append"), errorIfExists.getMessage());
    assertEquals(1L, spark.table(site).count());

    // A load that fails makes the write fail with its message; its history row is written.
    WeaverLoadException failed =
        assertThrows(
            WeaverLoadException.class,
            () ->
                spark
                    .sql("select 6 as id, 'f' as title")
                    .write()
                    .format("weaver")
                    .mode("append")
                    .save(site));
    assertTrue(failed.getMessage().contains("title"), failed.getMessage());
    assertEquals("WEAVER_LOAD_FAILED", failed.getCondition());
    assertEquals(
        "failed", spark.sql("SHOW WEAVER LOADS FOR " + site + " LIMIT 1").first().getAs("status"));
    assertEquals(1L, spark.table(site).count());
  }

  @Test
  void waiveStabilityGatesIsAWriteOption() throws Exception {
    sqlTable(
        "A.Site",
        "Primary key: id\nStability row threshold: 0\nDelete percentage threshold: 10\n",
        values("(1, 'a')"));
    spark.sql("BUILD WEAVER");
    String site = item + ".A.Site";
    rows("(1, 'a'), (2, 'b'), (3, 'c')").writeTo(site).append();

    WeaverLoadException refused =
        assertThrows(WeaverLoadException.class, () -> rows("(1, 'a')").writeTo(site).append());
    assertTrue(refused.getMessage().contains("refused"), refused.getMessage());
    assertEquals("WEAVER_LOAD_REFUSED", refused.getCondition());
    assertEquals("22000", refused.getSqlState());
    assertEquals(3L, spark.table(site).count());

    rows("(1, 'a')")
        .write()
        .format("weaver")
        .mode("append")
        .option("waiveStabilityGates", "true")
        .save(site);
    assertEquals(1L, spark.table(site).count());
    Row waived = spark.sql("SHOW WEAVER LOADS FOR " + site + " LIMIT 1").first();
    assertEquals(true, waived.getAs("gates_waived"), waived.toString());
  }
}
