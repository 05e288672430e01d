package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's main command, as a user runs it: check, build and load the bundled example. */
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
  }
}
