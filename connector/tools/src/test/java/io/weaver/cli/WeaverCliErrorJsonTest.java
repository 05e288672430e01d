package io.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code --format json} every failure is one JSON document on stdout naming its error class,
 * SQLSTATE and parameters; the exit code and stderr are those of text mode.
 */
class WeaverCliErrorJsonTest {
  private static final String WAREHOUSE = "../src/test/resources/warehouse/workspace";

  @TempDir Path dir;

  /** The single JSON document on stdout (parsing fails on text, or on a second document). */
  private static JsonNode document(CliRun r) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    var parser = mapper.getFactory().createParser(r.out());
    JsonNode doc = mapper.readTree(parser);
    assertTrue(doc != null && doc.isObject(), "stdout: " + r.out());
    assertEquals(null, parser.nextToken(), "one document only: " + r.out());
    assertTrue(r.out().endsWith("}\n") && r.out().indexOf('\n') == r.out().length() - 1, r.out());
    return doc;
  }

  private static Map<String, String> parameters(JsonNode doc) {
    Map<String, String> parameters = new TreeMap<>();
    Iterator<Map.Entry<String, JsonNode>> fields = doc.get("parameters").fields();
    fields.forEachRemaining(f -> parameters.put(f.getKey(), f.getValue().asText()));
    return parameters;
  }

  @Test
  void anUnknownOptionIsAnInvalidRequest() throws IOException {
    CliRun r = CliRun.run("check", "--bogus", "--format", "json");
    assertEquals(WeaverCli.USAGE, r.exit());
    JsonNode doc = document(r);
    assertEquals("WEAVER_INVALID_REQUEST", doc.get("errorClass").asText());
    assertEquals("42000", doc.get("sqlState").asText());
    assertEquals(Map.of("message", "unknown option '--bogus'"), parameters(doc));
    assertEquals("unknown option '--bogus'", doc.get("message").asText());
    assertTrue(r.err().startsWith("weaver: unknown option '--bogus'\n"), r.err());
  }

  @Test
  void anUnknownCommandIsAnInvalidRequest() throws IOException {
    CliRun r = CliRun.run("frobnicate", "--format=json");
    assertEquals(WeaverCli.USAGE, r.exit());
    JsonNode doc = document(r);
    assertEquals("WEAVER_INVALID_REQUEST", doc.get("errorClass").asText());
    assertEquals("unknown command 'frobnicate'", parameters(doc).get("message"));
  }

  @Test
  void aMissingWorkspaceNamesIt() throws IOException {
    Path missing = dir.resolve("nowhere");
    CliRun r = CliRun.run("check", "--workspace", missing.toString(), "--format", "json");
    assertEquals(WeaverCli.USAGE, r.exit());
    JsonNode doc = document(r);
    assertEquals("WEAVER_WORKSPACE_NOT_FOUND", doc.get("errorClass").asText());
    assertEquals("42K03", doc.get("sqlState").asText());
    assertEquals(missing.toAbsolutePath().normalize().toString(), parameters(doc).get("workspace"));
  }

  @Test
  void checkAndACommandItStopsNameTheFirstError() throws IOException {
    Path file = dir.resolve("Lakehouse/L/Tables/A.B.sql");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "/*\nTable ID: A.B\nDescription: x\n*/\nselect a\n");
    for (String command : new String[] {"check", "build"}) {
      CliRun r = CliRun.run(command, "--workspace", dir.toString(), "--format", "json");
      assertEquals(WeaverCli.FAILED, r.exit(), command);
      JsonNode doc = document(r);
      assertTrue(doc.get("findings").size() > 0, command);
      assertEquals("WEAVER_CHECK_FAILED", doc.get("errorClass").asText(), command);
      assertEquals("42000", doc.get("sqlState").asText(), command);
      Map<String, String> parameters = parameters(doc);
      assertEquals("1", parameters.get("errors"), command);
      assertEquals("Lakehouse/L/Tables/A.B.sql", parameters.get("file"), command);
      assertEquals("5", parameters.get("line"), command);
      assertEquals(doc.get("message").asText(), parameters.get("message"), command);
    }
  }

  @Test
  void anExceptionWeaverDidNotExpectIsAnInternalErrorNamingItsClass() throws IOException {
    Path notAFolder = Files.writeString(dir.resolve("file"), "x");
    CliRun r =
        CliRun.run(
            "tsql", "--workspace", WAREHOUSE, "--out", notAFolder.toString(), "--format", "json");
    assertEquals(WeaverCli.FAILED, r.exit());
    JsonNode doc = document(r);
    assertEquals("WEAVER_INTERNAL_ERROR", doc.get("errorClass").asText());
    assertEquals("XX000", doc.get("sqlState").asText());
    assertEquals("java.io.UncheckedIOException", parameters(doc).get("exception"));
    assertTrue(r.err().startsWith("weaver: cannot write "), r.err());
  }

  /** weaver.yaml is read after Check, by the command: its refusal keeps its class and facts. */
  @Test
  void anEngineRefusalKeepsItsClassAndFacts() throws IOException {
    Path workspace = dir.resolve("ws");
    copy(Path.of(WAREHOUSE), workspace);
    Files.writeString(workspace.resolve("weaver.yaml"), "lakehouse: [a, b]\n");
    CliRun r = CliRun.run("tsql", "--workspace", workspace.toString(), "--format", "json");
    assertEquals(WeaverCli.FAILED, r.exit(), r.err());
    JsonNode doc = document(r);
    assertEquals("WEAVER_INVALID_SETTING", doc.get("errorClass").asText(), r.out());
    assertEquals("22023", doc.get("sqlState").asText());
    assertEquals("spark.weaver.lakehouse", parameters(doc).get("setting"));
  }

  @Test
  void textModeIsUnchanged() {
    CliRun r = CliRun.run("check", "--bogus");
    assertEquals(WeaverCli.USAGE, r.exit());
    assertEquals("", r.out());
    assertTrue(r.err().startsWith("weaver: unknown option '--bogus'\n\nusage:"), r.err());
  }

  private static void copy(Path from, Path to) throws IOException {
    try (var files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }
}
