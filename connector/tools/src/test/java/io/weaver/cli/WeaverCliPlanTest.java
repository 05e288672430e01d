package io.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weaver.testing.SharedSpark;
import io.weaver.testing.WorkspaceFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weaver plan}: aligned text a person reads, one JSON document on stdout with progress on
 * stderr only, and exit code 1 when a Table would be refused — with nothing written.
 */
class WeaverCliPlanTest {
  @TempDir Path dir;

  private static final String HEADER =
      "/*\nTable ID: Parcel.Current\nDescription: Parcels.\nPrimary key: parcel_id\n"
          + "Stability row threshold: 0\nDelete percentage threshold: 50\n"
          + "Update percentage threshold: 100\n*/\n";

  private void parcels(Path ws, String values) {
    new WorkspaceFiles(ws)
        .write(
            "Lakehouse/CliPlan/Tables/Parcel.Current.sql",
            HEADER
                + "select parcel_id, status from values "
                + values
                + " as t(parcel_id, status);\n");
  }

  private static String[] args(String command, Path ws, Path lake, String... more) {
    List<String> all = new ArrayList<>(List.of(command, "--workspace", ws.toString()));
    all.addAll(List.of("--lakehouse", lake.toString()));
    all.addAll(List.of(more));
    return all.toArray(new String[0]);
  }

  @Test
  void planPrintsWhatRunWouldDoAndGatesTheExitCode() throws Exception {
    SharedSpark.get(); // the CLI's session is the shared one
    Path ws = dir.resolve("ws");
    Path lake = dir.resolve("lake").toAbsolutePath().normalize();
    parcels(ws, "('P1', 'new'), ('P2', 'sent'), ('P3', 'sent'), ('P4', 'new')");

    // Nothing built yet: Build would create it, the load is planned after Build; exit 0.
    CliRun fresh = CliRun.run(args("plan", ws, lake));
    assertEquals(0, fresh.exit(), fresh.err());
    assertTrue(fresh.out().startsWith("TABLE"), fresh.out());
    assertTrue(fresh.out().contains("CliPlan.Parcel.Current  created"), fresh.out());
    assertTrue(fresh.out().contains("Build would create the table"), fresh.out());
    assertFalse(lake.resolve("CliPlan").toFile().exists(), "a plan creates nothing");

    assertEquals(0, CliRun.run(args("run", ws, lake)).exit());
    // One update, one new parcel: the plan predicts them, in JSON on stdout only.
    parcels(ws, "('P1', 'new'), ('P2', 'lost'), ('P3', 'sent'), ('P4', 'new'), ('P5', 'new')");
    CliRun json = CliRun.run(args("plan", ws, lake, "--format", "json"));
    assertEquals(0, json.exit(), json.err());
    assertEquals(1, json.out().lines().count(), json.out());
    JsonNode table = new ObjectMapper().readTree(json.out()).get("tables").get(0);
    assertEquals("CliPlan.Parcel.Current", table.get("table_id").asText());
    assertEquals("unchanged", table.get("build_action").asText());
    assertEquals("succeeded", table.get("load_status").asText());
    assertEquals(1, table.get("rows_inserted").asLong());
    assertEquals(1, table.get("rows_updated").asLong());
    assertEquals(3, table.get("rows_unchanged").asLong());
    assertEquals("delete", table.get("gates").get(0).get("gate").asText());
    assertEquals("pass", table.get("gates").get(0).get("verdict").asText());
    assertTrue(json.err().contains("weaver: plan load 1/1 CliPlan.Parcel.Current"), json.err());
    assertTrue(json.err().contains("weaver:   diff\n"), json.err());

    // Three of four parcels gone: the delete gate would refuse; exit 1, the text says why.
    parcels(ws, "('P1', 'new')");
    CliRun refused = CliRun.run(args("plan", ws, lake));
    assertEquals(1, refused.exit(), refused.out() + refused.err());
    assertTrue(refused.out().contains("refused"), refused.out());
    assertTrue(
        refused.out().contains("gates: delete 3 of 4 (75.00%) against 50%: refuse"), refused.out());
    assertTrue(
        refused.out().contains("1 would be refused or fail; nothing was written"), refused.out());
    // Waived, it would succeed.
    assertEquals(
        0, CliRun.run(args("plan", ws, lake, "--waive-stability-gates", "--quiet")).exit());
    // The run that was planned has not happened: the history holds the first load only.
    CliRun history = CliRun.run(args("history", ws, lake, "--format", "json"));
    assertEquals(1, new ObjectMapper().readTree(history.out()).get("loads").size(), history.out());
  }
}
