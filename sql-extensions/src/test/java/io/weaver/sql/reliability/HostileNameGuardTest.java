package io.weaver.sql.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SQL extension's guards (docs/table-contract.md, "Guarantees": {@code GuardWeaverTables},
 * {@code WritesAsLoads}) on a Weaver table whose names are hostile but legal (docs/reliability.md,
 * "Identifiers"): schema {@code select}, object {@code table} (reserved words), a primary key
 * {@code k`ey--x} and columns with quotes, Unicode, a reserved word, {@code ..}, a {@code
 * delta.`/path`} form and a comment opener. Every refused statement — by item-catalog name and by
 * {@code delta.`path`}, through SQL and the {@code DeltaTable} API — is refused with the guard's
 * message, changes no Delta version and runs nothing else; the allowed paths (LOAD WEAVER TABLE,
 * reads through the live-rows rule, business-column DML with a WHERE, INSERT INTO as a load) treat
 * every name literally.
 */
class HostileNameGuardTest {
  @AfterAll
  static void stopSession() {
    SqlSession.stop();
  }

  private static final String KEY = "k`ey--x";
  private static final List<String> OTHERS =
      List.of(
          "it's",
          "say\"hi\"",
          "\u00fcn\u00ef_\u540d\u524d",
          "select",
          "a..b",
          "delta.`/tmp/weaver-evil`",
          "/*c*/");

  @TempDir Path workspace;

  private static String q(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  private static String yamlKey(String name) {
    return "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String row(int key, String prefix) {
    StringBuilder s = new StringBuilder("select " + key + " as " + q(KEY));
    for (int i = 0; i < OTHERS.size(); i++) {
      s.append(", '").append(prefix).append("' as ").append(q(OTHERS.get(i)));
    }
    return s.toString();
  }

  /** Run with each extension order: Delta's resolution rules must not get past Weaver's guards. */
  @ParameterizedTest(name = "spark.sql.extensions={0}")
  @ValueSource(strings = {SqlSession.WEAVER_FIRST, SqlSession.DELTA_FIRST})
  void dmlOnAHostileNamedWeaverTableIsRefusedLiterallyAndAllowedPathsWork(String extensions)
      throws IOException {
    SparkSession spark = SqlSession.get(extensions);
    Path evil = Path.of("/tmp/weaver-evil");
    assertFalse(Files.exists(evil), "leftover " + evil);
    spark.conf().set("spark.weaver.workspace", workspace.toString());
    String item = "HostileGuard" + System.nanoTime() % 100000;
    String identity = item + ".select.table";

    StringBuilder header =
        new StringBuilder(
            "/*\nTable ID: select.table\nDescription: Hostile names.\nPrimary key: "
                + yamlKey(KEY)
                + "\nStability row threshold: 0\nDelete percentage threshold: 100\n"
                + "Update percentage threshold: 100\nSchema:\n  "
                + yamlKey(KEY)
                + ": int\n");
    for (String c : OTHERS) {
      header.append("  ").append(yamlKey(c)).append(": string\n");
    }
    WorkspaceFiles.write(
        workspace,
        "Lakehouse/" + item + "/Tables/select.table.sql",
        header + "*/\n" + row(1, "v") + "\nunion all " + row(2, "v") + ";\n");

    List<Row> errors =
        spark.sql("CHECK WEAVER").collectAsList().stream()
            .filter(r -> r.getString(3).equals("error"))
            .toList();
    assertEquals(List.of(), errors);
    spark.sql("BUILD WEAVER ITEM " + item).collectAsList();
    Row first = spark.sql("LOAD WEAVER TABLE " + q(item) + ".`select`.`table`").first();
    assertEquals("succeeded", first.getString(2), first.toString());
    assertEquals(2L, first.getLong(3));

    Path lake = workspace.resolve(".weaver/lakehouse");
    String path = lake.resolve(item + "/Tables/select/table").toString();
    String byName = item + ".`select`.`table`";
    String byPath = "delta.`" + path + "`";
    String canary = "canary_" + item.toLowerCase();
    spark.sql("CREATE TABLE " + canary + " (x INT) USING delta").collectAsList();
    long version = DeltaTable.forPath(spark, path).history(1).first().getLong(0);

    // Refused: no WHERE (or a WHERE that is always true), managed columns, overwrites.
    List<String> refusals = new ArrayList<>();
    for (String target : List.of(byName, byPath)) {
      refusals.add("UPDATE " + target + " SET " + q("it's") + " = 'x'");
      refusals.add("UPDATE " + target + " SET " + q("say\"hi\"") + " = 'x' WHERE 1 = 1");
      refusals.add("DELETE FROM " + target);
      refusals.add("DELETE FROM " + target + " WHERE true");
      refusals.add(
          "UPDATE "
              + target
              + " SET "
              + q("select")
              + " = 'x', row_delete_datetime = current_timestamp() WHERE "
              + q(KEY)
              + " = 1");
      refusals.add(
          "MERGE INTO "
              + target
              + " t USING (SELECT 1 AS "
              + q(KEY)
              + ") s ON t."
              + q(KEY)
              + " = s."
              + q(KEY)
              + " WHEN MATCHED THEN UPDATE SET t."
              + q("a..b")
              + " = 'm', t.row_update_datetime = current_timestamp()");
      refusals.add(
          "MERGE INTO "
              + target
              + " t USING (SELECT 9 AS "
              + q(KEY)
              + ") s ON t."
              + q(KEY)
              + " = s."
              + q(KEY)
              + " WHEN NOT MATCHED THEN INSERT ("
              + q(KEY)
              + ", "
              + q("/*c*/")
              + ", row_insert_datetime) VALUES (s."
              + q(KEY)
              + ", 'i', current_timestamp())");
    }
    // A full-width overwrite (every column, managed ones included) reaches WritesAsLoads in both
    // extension orders.
    refusals.add("INSERT OVERWRITE " + byName + " SELECT * FROM " + byPath);
    refusals.add("INSERT OVERWRITE " + byPath + " SELECT * FROM " + byName);
    boolean deltaFirst = extensions.equals(SqlSession.DELTA_FIRST);
    for (String target : List.of(byName, byPath)) {
      // Business columns only, by position: Weaver's rule refuses it as an overwrite; with Delta's
      // extension first, Delta's column-arity check refuses it before Weaver's rule sees it.
      String statement = "INSERT OVERWRITE " + target + " " + row(5, "o");
      AnalysisException refused =
          assertThrows(AnalysisException.class, () -> spark.sql(statement), statement);
      assertTrue(
          refused
              .getMessage()
              .contains(deltaFirst ? "not enough data columns" : "Weaver table " + identity),
          statement + "\n" + refused.getMessage());
      assertEquals(version, DeltaTable.forPath(spark, path).history(1).first().getLong(0));
    }
    for (String statement : refusals) {
      AnalysisException refused =
          assertThrows(AnalysisException.class, () -> spark.sql(statement), statement);
      String message = refused.getMessage();
      assertTrue(message.contains("Weaver table " + identity), statement + "\n" + message);
      assertTrue(message.contains("LOAD WEAVER TABLE " + identity), statement + "\n" + message);
      assertEquals(
          version,
          DeltaTable.forPath(spark, path).history(1).first().getLong(0),
          "a refused statement writes nothing: " + statement);
    }
    // The DeltaTable API goes through the same guard.
    Throwable api = assertThrows(Throwable.class, () -> DeltaTable.forPath(spark, path).delete());
    assertTrue(SqlSession.messages(api).contains("Weaver table " + identity), api.toString());
    assertEquals(version, DeltaTable.forPath(spark, path).history(1).first().getLong(0));

    // Reads through the live-rows rule, every name quoted literally.
    StringBuilder all = new StringBuilder("SELECT " + q(KEY));
    for (String c : OTHERS) {
      all.append(", ").append(q(c));
    }
    List<Row> read =
        spark.sql(all + " FROM " + byName + " WHERE " + q(KEY) + " = 1").collectAsList();
    assertEquals(1, read.size());
    for (int i = 1; i <= OTHERS.size(); i++) {
      assertEquals("v", read.get(0).getString(i), OTHERS.get(i - 1));
    }
    assertEquals(
        2L,
        spark
            .sql("SELECT count(" + q("delta.`/tmp/weaver-evil`") + ") FROM " + byPath)
            .first()
            .getLong(0));

    // Business-column DML with a WHERE passes the guard and changes exactly the named column.
    spark
        .sql(
            "UPDATE "
                + byName
                + " SET "
                + q("it's")
                + " = 'changed' WHERE "
                + q(KEY)
                + " = 1 AND "
                + q("a..b")
                + " = 'v'")
        .collectAsList();
    assertEquals(version + 1, DeltaTable.forPath(spark, path).history(1).first().getLong(0));
    Row changed =
        spark
            .sql(
                "SELECT "
                    + q("it's")
                    + ", "
                    + q("say\"hi\"")
                    + " FROM "
                    + byPath
                    + " WHERE "
                    + q(KEY)
                    + " = 1")
            .first();
    assertEquals("changed", changed.getString(0));
    assertEquals("v", changed.getString(1));

    // INSERT INTO by position is a load; each value lands in its own hostile column.
    StringBuilder values = new StringBuilder();
    for (int key = 1; key <= 3; key++) {
      values.append(key == 1 ? "" : ", ").append("(").append(key);
      for (int i = 0; i < OTHERS.size(); i++) {
        values.append(", '").append(key == 3 ? "p" + i : "v").append("'");
      }
      values.append(")");
    }
    String insert = "INSERT INTO " + byName + " VALUES " + values;
    // In either extension order: Weaver's parser makes it the load before Delta's arity check.
    Row inserted = spark.sql(insert).first();
    assertEquals("succeeded", inserted.getString(2), inserted.toString());
    assertEquals(1L, inserted.getLong(3));
    assertEquals(version + 2, DeltaTable.forPath(spark, path).history(1).first().getLong(0));
    Row three = spark.sql(all + " FROM " + byName + " WHERE " + q(KEY) + " = 3").first();
    for (int i = 1; i <= OTHERS.size(); i++) {
      assertEquals("p" + (i - 1), three.getString(i), OTHERS.get(i - 1));
    }

    // The statement the guard's message recommends runs as written.
    Row again = spark.sql("LOAD WEAVER TABLE " + identity).first();
    assertEquals("succeeded", again.getString(2), again.toString());
    assertEquals(1L, again.getLong(5)); // key 3 is not in the Table's own rows: soft-deleted
    assertEquals(2L, spark.sql("SELECT count(*) FROM " + byName).first().getLong(0));

    // Nothing else ran: the canary is there, no path was formed from a name.
    assertEquals(0L, spark.sql("SELECT count(*) FROM " + canary).first().getLong(0));
    assertFalse(Files.exists(evil), "a column name never becomes a path");
    try (Stream<Path> files = Files.walk(lake)) {
      assertTrue(files.allMatch(p -> p.normalize().startsWith(lake)));
    }
    spark.sql("DROP TABLE " + canary).collectAsList();
  }
}
