package io.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.testing.SharedSpark;
import io.weaver.testing.WorkspaceFiles;
import io.weaver.workspace.TableId;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weaver test}: JSON and text output, exit codes by severity, usage errors. */
class WeaverCliTestCommandTest {
  @TempDir Path dir;

  private static CliRun run(String... args) {
    return CliRun.run(args);
  }

  private void write(Path workspace, String relative, String text) {
    new WorkspaceFiles(workspace).write(relative, text);
  }

  @Test
  void jsonAndTextReportTestsAndOnlyErrorsFailTheRun() throws IOException {
    SparkSession spark = SharedSpark.get(); // the CLI's session is the shared one
    String item = "CliTest";
    Path ws = dir.resolve("ws");
    Path lake = dir.resolve("lake").toAbsolutePath().normalize();
    write(
        ws,
        "Lakehouse/" + item + "/Tables/Parcel.Current.sql",
        "/*\nTable ID: Parcel.Current\nDescription: Parcels.\nPrimary key: parcel_id\n"
            + "Stability row threshold: 0\nDelete percentage threshold: 100\n"
            + "Update percentage threshold: 100\n*/\n"
            + "select parcel_id, status from values ('P1', 'new'), ('P2', 'sent')"
            + " as t(parcel_id, status);\n");
    write(
        ws,
        "Lakehouse/" + item + "/Tests/NoNewParcels.sql",
        "/*\nTest ID: NoNewParcels\nDescription: Parcels should move on.\nSeverity: warning\n*/\n"
            + "select parcel_id from Parcel.Current where status = 'new';\n");
    String[] common = {"--workspace", ws.toString(), "--lakehouse", lake.toString()};
    assertEquals(0, run(concat("build", common)).exit());
    CliRun loaded = run(concat("load", common));
    assertEquals(0, loaded.exit(), loaded.err());
    // Progress on stderr: the Table of the total, then its steps as its Spark jobs name them.
    assertTrue(
        loaded.err().contains("weaver: load 1/1 " + item + ".Parcel.Current\n"), loaded.err());
    assertTrue(loaded.err().contains("weaver:   write new row versions\n"), loaded.err());
    assertTrue(loaded.err().contains("weaver:   history and state\n"), loaded.err());
    CliRun quiet = run(concat("load", common, "--quiet", "--format", "json"));
    assertEquals(0, quiet.exit(), quiet.err());
    assertTrue(!quiet.err().contains("weaver:"), "--quiet prints no progress: " + quiet.err());
    assertTrue(quiet.out().startsWith("{") && quiet.out().lines().count() == 1, quiet.out());

    CliRun clean = run(concat("test", common, "--format", "json"));
    assertEquals(0, clean.exit(), clean.err());
    assertEquals(
        "{\"tests\":[{\"test_id\":\"Parcel.Current:primary-key\",\"table_id\":\""
            + item
            + ".Parcel.Current\",\"kind\":\"primary-key\",\"severity\":\"error\","
            + "\"status\":\"passed\",\"violations\":0,\"sample\":[],\"message\":null},"
            + "{\"test_id\":\"NoNewParcels\",\"table_id\":\""
            + item
            + "\",\"kind\":\"authored\",\"severity\":\"warning\",\"status\":\"failed\","
            + "\"violations\":1,\"sample\":[{\"parcel_id\":\"P1\"}],\"message\":null}]}\n",
        clean.out(),
        "a failed warning exits 0");

    String path =
        LakehouseLayout.at(lake.toString())
            .tablePath(item, TableId.parse("Parcel.Current").orElseThrow());
    spark.sql(
        "insert into delta.`"
            + path
            + "` (parcel_id, status, row_insert_datetime, row_update_datetime,"
            + " row_delete_datetime, row_signature) values ('P2', 'lost', current_timestamp(),"
            + " current_timestamp(), timestamp_micros(253402214400000000L), 'x')");
    CliRun dirty =
        run(concat("test", common, "--format", "json", "--table", item + ".Parcel.Current"));
    assertEquals(1, dirty.exit(), dirty.err());
    assertTrue(
        dirty
            .out()
            .startsWith(
                "{\"tests\":[{\"test_id\":\"Parcel.Current:primary-key\",\"table_id\":\""
                    + item
                    + ".Parcel.Current\",\"kind\":\"primary-key\",\"severity\":\"error\","
                    + "\"status\":\"failed\",\"violations\":2,\"sample\":[{\"parcel_id\":\"P2\","),
        dirty.out());
    assertTrue(!dirty.out().contains("NoNewParcels"), "a Table scope runs no authored test");
    assertEquals(1, dirty.out().lines().count(), "exactly one JSON document");

    CliRun text = run(concat("test", common, "--item", item));
    assertEquals(1, text.exit());
    assertTrue(text.out().contains("failed error   Parcel.Current:primary-key"), text.out());
    assertTrue(text.out().contains("sample: {\"parcel_id\":\"P2\""), text.out());
    assertTrue(text.out().contains("failed warning NoNewParcels"), text.out());
    assertTrue(
        text.out().endsWith("test: 2 test(s), 0 passed, 2 failed (1 error, 1 warning)\n"),
        text.out());
  }

  @Test
  void usageErrorsExitTwo() {
    assertEquals(
        2, run("test", "--workspace", dir.toString(), "--item", "A", "--table", "A.B.C").exit());
    assertEquals(2, run("test", "--workspace", dir.toString(), "--allow-destructive").exit());
    assertEquals(2, run("test", "--workspace", dir.toString(), "--table", "B").exit());
  }

  private static String[] concat(String command, String[] common, String... more) {
    String[] all = new String[1 + common.length + more.length];
    all[0] = command;
    System.arraycopy(common, 0, all, 1, common.length);
    System.arraycopy(more, 0, all, 1 + common.length, more.length);
    return all;
  }
}
