package io.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weaver tsql}: the Warehouse T-SQL, generated without an endpoint or a Spark session. */
class WeaverCliTsqlTest {
  private static final String WORKSPACE = "src/test/resources/warehouse/workspace";

  @TempDir Path out;

  @Test
  void printsEveryBatchOfTheTablesInScope() {
    CliRun r = CliRun.run("tsql", "--workspace", WORKSPACE, "--table", "Sales.Sales.OrderLine");
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("-- Sales: catalogue-LoadHistory (one batch)"), r.out());
    assertTrue(r.out().contains("CREATE OR ALTER PROCEDURE [_].[Load Sales.OrderLine]"), r.out());
    assertTrue(!r.out().contains("Sales.Customer"), "only the Table in scope");
  }

  @Test
  void writesOneFilePerBatchUnderTheItem() throws Exception {
    CliRun r = CliRun.run("tsql", "--workspace", WORKSPACE, "--out", out.toString());
    assertEquals(0, r.exit(), r.err());
    try (Stream<Path> files = Files.list(out.resolve("Sales"))) {
      long procedures =
          files.filter(p -> p.getFileName().toString().endsWith("-load-procedure.sql")).count();
      assertEquals(4, procedures, "every Table with a load procedure");
    }
  }

  @Test
  void aTableWithoutSchemaIsNamedWithWhatToDo() {
    CliRun r = CliRun.run("tsql", "--workspace", "../examples/logistics", "--format", "json");
    assertEquals(1, r.exit(), r.out() + r.err());
    assertTrue(r.out().contains("Reporting.Parcel.StatusCount: no Schema declared"), r.out());
  }
}
