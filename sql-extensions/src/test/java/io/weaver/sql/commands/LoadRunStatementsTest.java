package io.weaver.sql.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load run taken statement by statement, as the Python package over Spark Connect takes it: the
 * engine answers {@code skipped} for a Table whose dependency stopped (a Python Table's {@code
 * DESCRIBE … IN RUN} hands no load context then), and {@code PUBLISH WEAVER RUN} returns the run's
 * rows in load order and forgets it. Runs are the Spark session's own and bounded.
 */
class LoadRunStatementsTest {
  private static final String ITEM = "Run";

  @TempDir Path workspace;

  @AfterAll
  static void stop() {
    SqlSession.stop();
  }

  private static String python(String id, String dependencies) {
    String object = id.replace('.', '_').replace("A_", "A__");
    return "\"\"\"\nTable ID: "
        + id
        + "\n\nDescription: A Python table.\n\n"
        + dependencies
        + "Schema:\n  id: int\n  name: string\n\nPrimary key: id\n\"\"\"\n"
        + "from weaver import Table\n\n\nclass "
        + object
        + "(Table):\n    def read(self):\n        return None\n";
  }

  @Test
  void theEngineKeepsTheRun() throws IOException {
    SparkSession spark = SqlSession.get();
    WorkspaceFiles.sqlTable(
        workspace,
        ITEM,
        "A.Site",
        "Primary key: id\n",
        "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    WorkspaceFiles.write(workspace, "Lakehouse/Run/Tables/A__Py.py", python("A.Py", ""));
    WorkspaceFiles.write(
        workspace,
        "Lakehouse/Run/Tables/A__After.py",
        python("A.After", "Dependencies: [A.Py]\n\n"));
    spark.conf().set("spark.weaver.workspace", workspace.toString());
    spark.sql("BUILD WEAVER ITEM " + ITEM).collectAsList();

    Dataset<Row> opened = spark.sql("SHOW WEAVER LOAD PLAN ITEM " + ITEM + " OPEN RUN");
    assertEquals(
        List.of("table_id", "form", "depends_on", "run_id"), Arrays.asList(opened.columns()));
    List<Row> plan = opened.collectAsList();
    String run = plan.get(0).getAs("run_id");
    assertTrue(plan.stream().allMatch(r -> run.equals(r.getAs("run_id"))), plan.toString());
    List<String> order = plan.stream().map(r -> r.<String>getAs("table_id")).toList();
    assertTrue(order.indexOf("Run.A.Py") < order.indexOf("Run.A.After"), order.toString());
    // the plan alone keeps its three columns and opens nothing
    assertEquals(
        List.of("table_id", "form", "depends_on"),
        Arrays.asList(spark.sql("SHOW WEAVER LOAD PLAN ITEM " + ITEM).columns()));

    String in = " IN RUN '" + run + "'";
    for (String table : order) {
      if (table.equals("Run.A.After")) {
        // its dependency was skipped (no Python runtime in this session): no read() to run
        Row described = spark.sql("DESCRIBE WEAVER LOAD TABLE " + table + in).first();
        assertNull(described.getAs("load_context"), described.toString());
      }
      List<Row> rows = spark.sql("LOAD WEAVER TABLE " + table + in).collectAsList();
      Row last = rows.get(rows.size() - 1);
      switch (table) {
        case "Run.A.Site" -> assertEquals("succeeded", last.getAs("status"), last.toString());
        case "Run.A.Py" -> assertEquals("skipped", last.getAs("status"), last.toString());
        default -> {
          assertEquals("skipped", last.getAs("status"), last.toString());
          assertEquals(
              "not loaded: dependency Run.A.Py was skipped",
              last.getAs("message"),
              last.toString());
          assertNotNull(last.getAs("load_id"));
        }
      }
    }
    List<Row> results = spark.sql("PUBLISH WEAVER RUN '" + run + "'").collectAsList();
    assertEquals(order, results.stream().map(r -> r.<String>getAs("table_id")).toList());

    // ended: forgotten
    AnalysisException gone =
        assertThrows(
            AnalysisException.class,
            () -> spark.sql("PUBLISH WEAVER RUN '" + run + "'").collectAsList());
    assertEquals("WEAVER_INVALID_REQUEST", gone.getCondition());

    // another session sees none of this session's runs
    String other =
        spark.sql("SHOW WEAVER LOAD PLAN TABLE Run.A.Site OPEN RUN").first().getAs("run_id");
    SparkSession second = spark.newSession();
    second.conf().set("spark.weaver.workspace", workspace.toString());
    AnalysisException foreign =
        assertThrows(
            AnalysisException.class,
            () ->
                second.sql("LOAD WEAVER TABLE Run.A.Site IN RUN '" + other + "'").collectAsList());
    assertTrue(foreign.getMessage().contains("no open load run"), foreign.getMessage());

    // a Table outside the run is refused
    assertThrows(
        AnalysisException.class,
        () -> spark.sql("LOAD WEAVER TABLE Run.A.Py IN RUN '" + other + "'").collectAsList());

    // bounded: opening more runs than a session keeps forgets the least recently used
    for (int i = 0; i < LoadRuns.OPEN_PER_SESSION; i++) {
      spark.sql("SHOW WEAVER LOAD PLAN TABLE Run.A.Site OPEN RUN").collectAsList();
    }
    assertThrows(
        AnalysisException.class,
        () -> spark.sql("PUBLISH WEAVER RUN '" + other + "'").collectAsList());
  }
}
