package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's main command, as a user runs it: check, build and load the bundled example from its
 * landing files, rerun it unchanged, then drop in the second delivery and run again.
 */
class MainJobTest {
  @TempDir Path lakehouse;

  @Test
  void runChecksBuildsAndLoadsTheExampleThenRerunsWithoutWriting() throws Exception {
    BinWeaverCheckTest.Result first =
        BinWeaverCheckTest.weaver(
            "run", "--workspace", "examples/logistics", "--lakehouse", lakehouse.toString());
    assertEquals(0, first.exit(), first.out() + first.err());
    assertTrue(first.out().contains("check: no errors"), first.out());
    assertTrue(first.out().matches("(?s).*created\\s+Logistics\\.Depot\\.Site.*"), first.out());
    assertTrue(
        first.out().matches("(?s).*succeeded\\s+Logistics\\.Depot\\.Site\\s+\\+4 .*"), first.out());
    assertTrue(
        first.out().matches("(?s).*succeeded\\s+Sales\\.Customer\\.Account\\s+\\+4 .*"),
        first.out());
    assertTrue(first.err().contains("weaver: load"), "progress goes to stderr");
    for (String table :
        new String[] {
          "Logistics.Depot.Site",
          "Logistics.Parcel.Current",
          "Logistics.Parcel.Event",
          "Logistics.Parcel.StatusCount",
          "Sales.Customer.Account",
          "Sales.Order.Shipment"
        }) {
      assertTrue(
          first.out().matches("(?s).*succeeded\\s+" + table.replace(".", "\\.") + "\\s+\\+[1-9].*"),
          table + " loads rows from its files: " + first.out());
    }
    assertTrue(
        first.out().matches("(?s).*succeeded\\s+Logistics\\.Parcel\\.Current\\s+\\+500 .*"),
        first.out());

    BinWeaverCheckTest.Result second =
        BinWeaverCheckTest.weaver(
            "run",
            "--workspace",
            "examples/logistics",
            "--lakehouse",
            lakehouse.toString(),
            "--format",
            "json");
    assertEquals(0, second.exit(), second.err());
    String json = second.out().strip();
    assertTrue(json.startsWith("{\"findings\":[],\"tables\":["), json);
    assertTrue(!json.contains("\"action\":\"created\""), "a rerun creates nothing: " + json);
    assertTrue(
        json.contains(
            "\"table_id\":\"Logistics.Depot.Site\",\"status\":\"succeeded\",\"rows_inserted\":0"),
        json);

    Process deliver =
        new ProcessBuilder(
                BinWeaverCheckTest.projectRoot()
                    .resolve("examples/logistics/deliver-second")
                    .toString(),
                lakehouse.toString())
            .redirectErrorStream(true)
            .start();
    String delivered = new String(deliver.getInputStream().readAllBytes());
    assertEquals(0, deliver.waitFor(), delivered);

    BinWeaverCheckTest.Result third =
        BinWeaverCheckTest.weaver(
            "run", "--workspace", "examples/logistics", "--lakehouse", lakehouse.toString());
    assertEquals(1, third.exit(), "a refused load fails the run: " + third.out() + third.err());
    // RTM's capacity changed, MST closed (soft delete), UTR opened.
    assertTrue(
        third.out().matches("(?s).*succeeded\\s+Logistics\\.Depot\\.Site\\s+\\+1 ~1 -1 .*"),
        third.out());
    assertTrue(
        third.out().matches("(?s).*succeeded\\s+Sales\\.Customer\\.Account\\s+\\+1 ~1 -0 .*"),
        third.out());
    assertTrue(
        third.out().matches("(?s).*succeeded\\s+Logistics\\.Parcel\\.Event\\s+\\+495 .*"),
        third.out());
    // 7 in 10 parcels changed status: more than Parcel.Current's 60 % update threshold.
    assertTrue(
        third
            .out()
            .matches("(?s).*refused\\s+Logistics\\.Parcel\\.Current\\s+.*Update percentage.*"),
        third.out());
  }
}
