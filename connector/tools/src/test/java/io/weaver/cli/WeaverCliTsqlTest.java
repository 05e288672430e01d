package io.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weaver tsql}: the Warehouse T-SQL, generated without an endpoint or a Spark session. */
class WeaverCliTsqlTest {
  /** The connector's Warehouse fixture (its golden tests use it too), from this module's folder. */
  private static final String WORKSPACE = "../src/test/resources/warehouse/workspace";

  @TempDir Path out;

  @Test
  void printsEveryBatchOfTheTablesInScope() {
    CliRun r = CliRun.run("tsql", "--workspace", WORKSPACE, "--table", "Sales.Sales.OrderLine");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("-- Sales: catalogue-LoadHistory (one batch)"), r.out());
    assertTrue(r.out().contains("CREATE OR ALTER PROCEDURE [_].[Load Sales.OrderLine]"), r.out());
    assertTrue(!r.out().contains("Sales.Customer"), "only the Table in scope");
  }

  /**
   * A hand-deployed load procedure finds its {@code _.LoadState} row: the script has, after each
   * Table's procedures, the catalogue rows Build inserts, in one transaction.
   */
  @Test
  void theScriptHoldsTheCatalogueRowsBuildInsertsWithEachLoadStateRow() throws Exception {
    CliRun r = CliRun.run("tsql", "--workspace", WORKSPACE, "--format", "json");
    assertEquals(0, r.exit(), r.err());
    JsonNode batches = Json.read(r.out()).get("items").get("Sales");
    Map<String, String> byName = new LinkedHashMap<>();
    batches.forEach(b -> byName.put(b.get("name").asText(), b.get("sql").asText()));
    List<String> names = new ArrayList<>(byName.keySet());
    Pattern tableIdOfProcedure =
        Pattern.compile("DECLARE @weaver_table_id varchar\\(300\\) = (N'[^']*');");
    for (String table :
        List.of(
            "Sales.Archive",
            "Sales.Customer",
            "Sales.ExchangeRate",
            "Sales.OrderLine",
            "Sales.Product")) {
      String rows = byName.get(table + "-catalogue-rows");
      assertTrue(rows != null, table + " has catalogue rows: " + names);
      assertTrue(
          rows.startsWith("SET XACT_ABORT ON;\nBEGIN TRANSACTION;\n")
              && rows.endsWith("COMMIT TRANSACTION;\n"),
          rows);
      for (String catalogue : List.of("TableDictionary", "ColumnDictionary", "Registry")) {
        assertTrue(rows.contains("INSERT INTO [_].[" + catalogue + "]"), catalogue + ":\n" + rows);
      }
      String procedure = byName.get(table + "-load-procedure");
      if (table.equals("Sales.Archive")) {
        assertTrue(procedure == null, "Has load procedure: false");
        assertTrue(!rows.contains("[_].[LoadState]"), rows);
        continue;
      }
      Matcher id = tableIdOfProcedure.matcher(procedure);
      assertTrue(id.find(), procedure);
      assertTrue(
          rows.contains(
              "INSERT INTO [_].[LoadState] ([table_id], [last_load_id], [last_succeeded_at],"
                  + " [last_delta_version], [bookmark], [load_sequence]) VALUES ("
                  + id.group(1)
                  + ", NULL, NULL, NULL, NULL, 0);"),
          table + ":\n" + rows);
      assertTrue(
          names.indexOf(table + "-catalogue-rows") > names.indexOf(table + "-load-procedure"),
          "after the Table's procedures, as Build runs them: " + names);
    }
  }

  @Test
  void writesOneFilePerBatchUnderTheItem() throws Exception {
    CliRun r = CliRun.run("tsql", "--workspace", WORKSPACE, "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    try (Stream<Path> files = Files.list(out.resolve("Sales"))) {
      long procedures =
          files.filter(p -> p.getFileName().toString().endsWith("-load-procedure.sql")).count();
      assertEquals(5, procedures, "every Table with a load procedure");
    }
  }

  @Test
  void aTableWithoutSchemaIsNamedWithWhatToDo() {
    CliRun r = CliRun.run("tsql", "--workspace", "../../examples/logistics", "--format", "json");
    assertEquals(1, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("Reporting.Parcel.StatusCount: no Schema declared"), r.out());
  }
}
