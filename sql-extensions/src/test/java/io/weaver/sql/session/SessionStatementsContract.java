package io.weaver.sql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weaver's statements in a real Spark + Delta session. Each implementing class has its own session
 * ({@link SqlSession#get(String)}, stopped after the class): the extension order is a static conf,
 * different in each.
 */
abstract class SessionStatementsContract {
  static final StructType FINDINGS =
      new StructType()
          .add("path", DataTypes.StringType, false)
          .add("line", DataTypes.IntegerType, false)
          .add("column", DataTypes.IntegerType, false)
          .add("severity", DataTypes.StringType, false)
          .add("rule", DataTypes.StringType, false)
          .add("message", DataTypes.StringType, false);

  @TempDir Path workspace;

  /** The class's shared session. */
  abstract SparkSession spark();

  private String quoted(Path path) {
    return "'" + path.toString().replace("'", "''") + "'";
  }

  @Test
  void checkWeaverReturnsOneRowPerFinding() {
    Dataset<Row> findings = spark().sql("CHECK WEAVER WORKSPACE " + quoted(workspace));
    assertEquals(FINDINGS, findings.schema());
    // An empty workspace has nothing to report.
    assertEquals(0, findings.count());
  }

  @Test
  void checkWeaverDefaultsToTheSessionWorkspace() {
    spark().conf().set("spark.weaver.workspace", workspace.toUri().toString());
    try {
      Dataset<Row> findings = spark().sql("check weaver");
      assertEquals(FINDINGS, findings.schema());
      assertEquals(0, findings.count());
    } finally {
      spark().conf().unset("spark.weaver.workspace");
    }
  }

  @Test
  void checkWeaverWithoutAWorkspaceSaysHowToGiveOne() {
    AnalysisException e = assertThrows(AnalysisException.class, () -> spark().sql("CHECK WEAVER"));
    assertTrue(e.getMessage().contains("spark.weaver.workspace"), e.getMessage());
    assertTrue(e.getMessage().contains("WORKSPACE '<path>'"), e.getMessage());
  }

  @Test
  void checkWeaverOfAMissingFolderNamesIt() {
    Path missing = workspace.resolve("nope");
    AnalysisException e =
        assertThrows(
            AnalysisException.class,
            () -> spark().sql("CHECK WEAVER WORKSPACE " + quoted(missing)));
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  void statementsWithoutAWorkspaceSayHowToGiveOne() {
    for (List<String> statement :
        List.of(
            List.of("BUILD WEAVER ITEM Sales ALLOW DESTRUCTIVE", "BUILD WEAVER"),
            List.of("LOAD WEAVER TABLE A.B.C", "LOAD WEAVER TABLE A.B.C"),
            List.of("LOAD WEAVER ITEM Sales WAIVE STABILITY GATES", "LOAD WEAVER ITEM Sales"),
            List.of("SHOW WEAVER TABLES IN Sales", "SHOW WEAVER TABLES"),
            List.of("DESCRIBE WEAVER TABLE Sales.dbo.Order", "DESCRIBE WEAVER TABLE"),
            List.of("SHOW WEAVER LOADS FOR dbo.Order LIMIT 3", "SHOW WEAVER LOADS"),
            List.of("RESTORE WEAVER TABLE dbo.Order TO LOAD 'x1'", "RESTORE WEAVER TABLE"),
            List.of("TEST WEAVER TABLE dbo.Order", "TEST WEAVER"))) {
      AnalysisException e =
          assertThrows(AnalysisException.class, () -> spark().sql(statement.get(0)));
      assertTrue(e.getMessage().contains(statement.get(1)), e.getMessage());
      assertTrue(e.getMessage().contains("spark.weaver.workspace"), e.getMessage());
    }
  }

  @Test
  void deltaStatementsStillWork() {
    String table = "plain_" + getClass().getSimpleName().toLowerCase();
    spark().sql("CREATE TABLE " + table + " (a int) USING delta");
    try {
      spark().sql("INSERT INTO " + table + " VALUES (1), (2)");
      spark().sql("INSERT INTO " + table + " VALUES (3)");
      assertEquals(6L, spark().sql("SELECT sum(a) FROM " + table).first().getLong(0));
      assertEquals(3, spark().sql("DESCRIBE HISTORY " + table).count());
      // Delta's RESTORE and Spark's DESCRIBE/SHOW still reach their own parsers.
      spark().sql("RESTORE TABLE " + table + " TO VERSION AS OF 1");
      assertEquals(3L, spark().sql("SELECT sum(a) FROM " + table).first().getLong(0));
      assertEquals(1, spark().sql("DESCRIBE TABLE " + table).count());
      assertTrue(spark().sql("SHOW TABLES").count() >= 1);
    } finally {
      spark().sql("DROP TABLE IF EXISTS " + table);
    }
  }

  /**
   * Live rows, includeDeleted and a DataFrame load in this extension order: the engine's change
   * detection must still see the soft-deleted row (a revival, not a duplicate insert).
   */
  @Test
  void weaverTablesShowLiveRowsAndAppendsAreLoads() throws Exception {
    WorkspaceFiles.sqlTable(
        workspace,
        "LiveRows",
        "A.Site",
        "Primary key: id\nStability row threshold: 0\nDelete percentage threshold: 100\n",
        "select id, name from values (1, 'a'), (2, 'b'), (3, 'c') as t(id, name);\n");
    spark().conf().set("spark.weaver.workspace", workspace.toString());
    try {
      String site = "LiveRows.A.Site";
      spark().sql("BUILD WEAVER").collect();
      assertEquals("succeeded", spark().sql("LOAD WEAVER TABLE " + site).first().getString(2));
      spark()
          .sql("select id, name from values (1, 'a'), (2, 'b') as t(id, name)")
          .writeTo(site)
          .append();
      assertEquals(2L, spark().sql("SELECT count(*) FROM " + site).first().getLong(0));
      // The live-rows rule is the same in either extension order: names show live rows unless the
      // read asks for all, paths show every row.
      String path =
          workspace.resolve(".weaver/lakehouse/LiveRows/Tables/A/Site").toUri().toString();
      assertEquals(
          3L,
          spark()
              .sql("SELECT count(*) FROM " + site + " WITH ('includeDeleted' = 'true')")
              .first()
              .getLong(0));
      assertEquals(3L, spark().read().option("includeDeleted", "true").table(site).count());
      assertEquals(3L, spark().sql("SELECT count(*) FROM delta.`" + path + "`").first().getLong(0));
      // Every row by path, the live ones by name, in one plan: a join and a subquery.
      assertEquals(
          2L, spark().read().format("delta").load(path).join(spark().table(site), "id").count());
      assertEquals(
          2L,
          spark()
              .sql(
                  "SELECT count(*) FROM delta.`"
                      + path
                      + "` p WHERE p.id IN (SELECT id FROM "
                      + site
                      + ")")
              .first()
              .getLong(0));
      assertEquals(
          3L, spark().read().format("weaver").option("includeDeleted", "true").load(site).count());
      spark()
          .sql("select id, name from values (1, 'a'), (2, 'b'), (3, 'c') as t(id, name)")
          .write()
          .format("weaver")
          .mode("append")
          .save(site);
      Row revived = spark().sql("SHOW WEAVER LOADS FOR " + site + " LIMIT 1").first();
      assertEquals(1L, (long) revived.getAs("rows_revived"), revived.toString());
      assertEquals(0L, (long) revived.getAs("rows_inserted"), revived.toString());
      assertEquals(3L, spark().table(site).count());

      // The DeltaTable API: DELETE/UPDATE over DeltaTable.forName's DataFrame (a read by name)
      // reach
      // the whole table; MERGE, which Delta builds without analysis, over the physical table.
      io.delta.tables.DeltaTable.forName(spark(), site)
          .update(functions.expr("id = 2"), java.util.Map.of("name", functions.lit("b1")));
      assertEquals(
          1L,
          spark().sql("SELECT count(*) FROM " + site + " WHERE name = 'b1'").first().getLong(0));
      io.delta.tables.DeltaTable.forPath(spark(), path)
          .as("t")
          .merge(spark().sql("select 1 as id, 'a1' as name").as("s"), functions.expr("t.id = s.id"))
          .whenMatched()
          .updateExpr(java.util.Map.of("name", "s.name"))
          .execute();
      assertEquals(
          1L,
          spark().sql("SELECT count(*) FROM " + site + " WHERE name = 'a1'").first().getLong(0));
    } finally {
      spark().conf().unset("spark.weaver.workspace");
    }
  }
}
