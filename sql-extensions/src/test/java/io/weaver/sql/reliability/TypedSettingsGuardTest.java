package io.weaver.sql.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.session.WeaverConf;
import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DML guards cannot be typed away (docs/sql-statements.md, "Guards"): with every {@code
 * spark.weaver.*} setting Weaver has, and the conf that once exempted the engine's writes, set to
 * {@code true} by {@code SET}, a DELETE without WHERE and an UPDATE of a managed column are still
 * refused — by name, by path and through the {@code DeltaTable} API — and write nothing.
 */
class TypedSettingsGuardTest {
  @TempDir Path workspace;

  @AfterAll
  static void stopSession() {
    SqlSession.stop();
  }

  /** Every {@code spark.weaver.…} setting name {@link WeaverConf} declares (prefixes excluded). */
  static TreeSet<String> weaverSettings() throws IllegalAccessException {
    TreeSet<String> names = new TreeSet<>();
    for (Field field : WeaverConf.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        String value = (String) field.get(null);
        if (value.startsWith("spark.weaver.") && !value.endsWith(".")) {
          names.add(value);
        }
      }
    }
    return names;
  }

  @Test
  void settingEveryWeaverConfToTrueLetsNoGuardedStatementThrough() throws Exception {
    SparkSession spark = SqlSession.get();
    spark.conf().set(WeaverConf.WORKSPACE, workspace.toString());
    String item = "TypedGuard" + System.nanoTime() % 100000;
    WorkspaceFiles.write(
        workspace,
        "Lakehouse/" + item + "/Tables/Depot.Site.sql",
        "/*\nTable ID: Depot.Site\nDescription: Sites.\nPrimary key: site_id\n"
            + "Stability row threshold: 0\nSchema:\n  site_id: int\n  name: string\n*/\n"
            + "select 1 as site_id, 'a' as name union all select 2, 'b';\n");
    spark.sql("BUILD WEAVER ITEM " + item).collectAsList();
    Row loaded = spark.sql("LOAD WEAVER TABLE " + item + ".Depot.Site").first();
    assertEquals("succeeded", loaded.getString(2), loaded.toString());
    String path = workspace.resolve(".weaver/lakehouse/" + item + "/Tables/Depot/Site").toString();
    long version = DeltaTable.forPath(spark, path).history(1).first().getLong(0);

    TreeSet<String> settings = weaverSettings();
    assertTrue(settings.contains(WeaverConf.LAKEHOUSE), "WeaverConf's settings: " + settings);
    // The conf that switched the guards off before, and names a user might guess.
    settings.add("spark.weaver.internal.write");
    settings.add("spark.weaver.guards.disabled");
    settings.add("spark.weaver.admin.allowManagedWrites");
    for (String name : settings) {
      spark.sql("SET " + name + "=true");
    }
    try {
      String byName = item + ".Depot.Site";
      String byPath = "delta.`" + path + "`";
      for (String target : new String[] {byName, byPath}) {
        Map<String, String> refusals =
            Map.of(
                "DELETE FROM " + target, "without a WHERE clause",
                "UPDATE " + target + " SET row_signature = X'00' WHERE site_id = 1",
                    "managed column",
                "UPDATE " + target + " SET row_delete_datetime = NULL WHERE site_id = 2",
                    "managed column");
        for (Map.Entry<String, String> refusal : refusals.entrySet()) {
          AnalysisException refused =
              assertThrows(
                  AnalysisException.class, () -> spark.sql(refusal.getKey()), refusal.getKey());
          assertTrue(
              refused.getMessage().contains(refusal.getValue()),
              refusal.getKey() + "\n" + refused.getMessage());
        }
      }
      Throwable api = assertThrows(Throwable.class, () -> DeltaTable.forPath(spark, path).delete());
      assertTrue(SqlSession.messages(api).contains("without a WHERE clause"), api.toString());
    } finally {
      for (String name : settings) {
        spark.conf().unset(name);
      }
      spark.conf().set(WeaverConf.WORKSPACE, workspace.toString());
    }
    assertEquals(
        version,
        DeltaTable.forPath(spark, path).history(1).first().getLong(0),
        "a refused statement writes nothing");
    assertEquals(2L, spark.read().format("delta").load(path).count());
    // The engine's own writes still pass: a load after the attempts succeeds (nothing changed).
    Row again = spark.sql("LOAD WEAVER TABLE " + item + ".Depot.Site").first();
    assertEquals("succeeded", again.getString(2), again.toString());
    assertEquals(2L, again.getLong(7), "rows_unchanged: " + again);
  }
}
