package io.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.testing.SharedSpark;
import io.weaver.testing.WorkspaceFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weaver docs}: a workspace never built still gets its site; options and usage. Also {@code
 * weaver describe} of a never-built Table: its declaration as JSON.
 */
class WeaverCliDocsTest {
  @TempDir Path dir;

  @Test
  void aNeverBuiltWorkspaceGetsPagesFromItsDeclarations() throws Exception {
    SharedSpark.get(); // the CLI's session is the shared one
    Path ws = dir.resolve("ws");
    new WorkspaceFiles(ws)
        .write(
            "Lakehouse/CliDocs/Tables/Parcel.Current.sql",
            "/*\nTable ID: Parcel.Current\nDescription: Parcels <b>&</b> more.\n"
                + "Primary key: parcel_id\nSequence column: changed_at\n"
                + "Schema:\n  parcel_id: string\n  status: string\n  changed_at: timestamp\n*/\n"
                + "select 'P1' as parcel_id, 'new' as status,"
                + " timestamp'2026-01-01 00:00:00' as changed_at;\n");
    Path out = dir.resolve("site");
    CliRun run =
        CliRun.run(
            "docs",
            "--workspace",
            ws.toString(),
            "--lakehouse",
            dir.resolve("lake").toString(),
            "--out",
            out.toString(),
            "--format",
            "json");
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().startsWith("{\"site\":{\"index\":"), run.out());
    String page =
        Files.readString(out.resolve("tables/CliDocs.Parcel.Current.html"), StandardCharsets.UTF_8);
    assertTrue(page.contains("Parcels &lt;b&gt;&amp;&lt;/b&gt; more."), "escaped: " + page);
    assertTrue(page.contains("not built yet"), page);
    assertTrue(page.contains("<code>parcel_id</code></td><td><code>string</code>"), page);
    assertTrue(page.contains("no test run recorded"), page);
    assertTrue(page.contains("<dt>Sequence column</dt><dd><code>changed_at</code></dd>"), page);
    assertTrue(Files.readString(out.resolve("index.html")).contains("id=\"graph\""));
  }

  @Test
  void describeShowsTheDeclarationOfANeverBuiltTable() throws Exception {
    SharedSpark.get();
    Path ws = dir.resolve("ws");
    new WorkspaceFiles(ws)
        .write(
            "Lakehouse/CliDescribe/Tables/Parcel.Current.sql",
            "/*\nTable ID: Parcel.Current\nDescription: Parcels.\n"
                + "Primary key: parcel_id\nDeletes: hard\nSequence column: changed_at\n"
                + "Schema:\n  parcel_id: string\n  changed_at: timestamp\n*/\n"
                + "select 'P1' as parcel_id, timestamp'2026-01-01 00:00:00' as changed_at;\n")
        .write(
            "Lakehouse/CliDescribe/Tables/Parcel.Plain.sql",
            "/*\nTable ID: Parcel.Plain\nDescription: Parcels.\n*/\nselect 'P1' as parcel_id;\n");
    String lake = dir.resolve("lake").toString();
    CliRun run =
        CliRun.run(
            "describe",
            "--workspace",
            ws.toString(),
            "--lakehouse",
            lake,
            "--table",
            "CliDescribe.Parcel.Current",
            "--format",
            "json");
    assertEquals(0, run.exit(), run.err());
    assertTrue(
        run.out().contains("\"deletes\":\"hard\",\"sequence_column\":\"changed_at\""), run.out());
    CliRun plain =
        CliRun.run(
            "describe",
            "--workspace",
            ws.toString(),
            "--lakehouse",
            lake,
            "--table",
            "CliDescribe.Parcel.Plain",
            "--format",
            "json");
    assertEquals(0, plain.exit(), plain.err());
    assertTrue(plain.out().contains("\"deletes\":null,\"sequence_column\":null"), plain.out());
  }

  @Test
  void optionsOfOtherCommandsAreUsageErrors() {
    assertEquals(2, CliRun.run("docs", "--workspace", dir.toString(), "--table", "A.B.C").exit());
    assertTrue(CliRun.run("--help").out().contains("docs       a static documentation site"));
  }
}
