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

/** {@code weaver docs}: a workspace never built still gets its site; options and usage. */
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
                + "Primary key: parcel_id\nSchema:\n  parcel_id: string\n  status: string\n*/\n"
                + "select 'P1' as parcel_id, 'new' as status;\n");
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
    assertTrue(Files.readString(out.resolve("index.html")).contains("id=\"graph\""));
  }

  @Test
  void optionsOfOtherCommandsAreUsageErrors() {
    assertEquals(2, CliRun.run("docs", "--workspace", dir.toString(), "--table", "A.B.C").exit());
    assertTrue(CliRun.run("--help").out().contains("docs       a static documentation site"));
  }
}
