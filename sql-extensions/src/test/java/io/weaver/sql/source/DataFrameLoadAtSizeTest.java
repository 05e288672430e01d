package io.weaver.sql.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DataFrame API contract's measured case (docs/dataframe-api.md, "Measured"): a DataFrame load
 * of {@code -Dweaver.dataframe.rows=N} rows (CI: 20,000; the measured case: 100,000) equals LOAD
 * WEAVER TABLE, over three rounds. It was a test of {@link DataFrameApiTest}; as a class of its own
 * (the same session setup) its ~half of that class's time runs beside the rest of the suite in the
 * second test JVM.
 */
class DataFrameLoadAtSizeTest {
  private static final String KEYED =
      "Primary key: id\nStability row threshold: 0\nDelete percentage threshold: 100\n"
          + "Update percentage threshold: 100\n";

  private static SparkSession spark;

  @TempDir Path workspace;
  private final String item = "Dfk1";

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
    spark.conf().set("spark.weaver.workspace", workspace.toString());
  }

  private void sqlTable(String id, String header, String body) throws IOException {
    WorkspaceFiles.sqlTable(workspace, item, id, header, body);
  }

  private static long count(String sql) {
    return spark.sql(sql).first().getLong(0);
  }

  @Test
  void aDataFrameLoadEqualsLoadWeaverTable() throws IOException {
    long n = Long.getLong("weaver.dataframe.rows", 20_000);
    long shift = n / 20; // the second snapshot drops the first `shift` keys and adds as many
    String first = "select id, concat('n', cast(id as string)) as name from range(" + n + ");\n";
    String second =
        "select id, case when id % 10 = 0 then concat('m', cast(id as string))"
            + " else concat('n', cast(id as string)) end as name from range("
            + shift
            + ", "
            + (n + shift)
            + ");\n";
    // The third snapshot brings back the keys the second one deleted: they are revived.
    String third = second.replace("range(" + shift + ", ", "range(0, ");
    sqlTable("A.BySql", KEYED, first);
    sqlTable("A.ByFrame", KEYED, first);
    spark.sql("BUILD WEAVER");
    String bySql = item + ".A.BySql";
    String byFrame = item + ".A.ByFrame";

    for (String body : List.of(first, second, third)) {
      sqlTable("A.BySql", KEYED, body);
      Row sqlRow = spark.sql("LOAD WEAVER TABLE " + bySql).first();
      assertEquals("succeeded", sqlRow.getAs("status"), sqlRow.toString());
      spark.sql(body.replace(";\n", "")).write().format("weaver").mode("append").save(byFrame);

      String columns =
          "id, name, row_signature,"
              + " row_insert_datetime = row_update_datetime AS same_times,"
              + " row_delete_datetime = timestamp'9999-12-31 00:00:00' AS live";
      Dataset<Row> a =
          spark.sql("SELECT " + columns + " FROM " + bySql + " WITH ('includeDeleted' = 'true')");
      Dataset<Row> b =
          spark.sql("SELECT " + columns + " FROM " + byFrame + " WITH ('includeDeleted' = 'true')");
      assertEquals(0L, a.exceptAll(b).count());
      assertEquals(0L, b.exceptAll(a).count());
      assertEquals(spark.table(bySql).count(), spark.table(byFrame).count());

      Row h1 = spark.sql("SHOW WEAVER LOADS FOR " + bySql + " LIMIT 1").first();
      Row h2 = spark.sql("SHOW WEAVER LOADS FOR " + byFrame + " LIMIT 1").first();
      for (String field :
          List.of(
              "status",
              "rows_inserted",
              "rows_updated",
              "rows_deleted",
              "rows_revived",
              "rows_unchanged",
              "rows_rejected",
              "target_live_rows_before",
              "target_live_rows_after",
              "gates_waived")) {
        assertEquals((Object) h1.getAs(field), h2.getAs(field), field + ": " + h1 + " vs " + h2);
      }
    }
    List<Row> loads = spark.sql("SHOW WEAVER LOADS FOR " + byFrame).collectAsList();
    assertEquals(3, loads.size(), loads.toString());
    Row changes = loads.get(1);
    assertEquals(shift, (long) changes.getAs("rows_inserted"), changes.toString());
    assertEquals(shift, (long) changes.getAs("rows_deleted"), changes.toString());
    // Every tenth key of the kept ones changes its name (shift is a multiple of 10).
    assertEquals((n - shift) / 10, (long) changes.getAs("rows_updated"), changes.toString());
    Row revival = loads.get(0);
    assertEquals(shift, (long) revival.getAs("rows_revived"), revival.toString());
    assertEquals(n + shift, (long) revival.getAs("target_live_rows_after"), revival.toString());
    assertEquals(n + shift, count("SELECT count(DISTINCT id) FROM " + byFrame));
  }
}
