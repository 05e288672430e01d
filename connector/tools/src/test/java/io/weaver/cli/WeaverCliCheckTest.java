package io.weaver.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeaverCliCheckTest {
  @TempDir Path dir;

  private static CliRun run(String... args) {
    return CliRun.run(args);
  }

  static Path example() {
    return Path.of(System.getProperty("weaver.projectRoot", "..")).resolve("examples/logistics");
  }

  @Test
  void exampleWorkspaceIsCleanAsJson() {
    CliRun r = run("check", "--workspace", example().toString(), "--format", "json");
    assertEquals("{\"findings\":[]}\n", r.out());
    assertEquals(0, r.exit());
  }

  @Test
  void exampleWorkspaceIsCleanAsText() {
    CliRun r = run("check", "--workspace=" + example());
    assertEquals(0, r.exit());
    assertTrue(r.out().contains("no findings"), r.out());
  }

  @Test
  void findingsAsJsonCarryEveryField() throws IOException {
    Path file = dir.resolve("Lakehouse/L/Tables/A.B.sql");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file, "/*\nTable ID: A.B\nDescription: \"x\\ty\"\nPrimary Key: a\n*/\nselect a;\n");
    CliRun r = run("check", "--workspace", dir.toString(), "--format", "json");
    assertEquals(1, r.exit());
    assertTrue(
        r.out()
            .startsWith(
                "{\"findings\":[{\"path\":\"Lakehouse/L/Tables/A.B.sql\",\"line\":4,\"column\":1,"
                    + "\"severity\":\"error\",\"rule\":\"unknown-key\",\"message\":\"unknown key"
                    + " 'Primary Key'; did you mean 'Primary key'?\"}"),
        r.out());
  }

  @Test
  void aCommandRefusedByCheckNamesTheErrorClassInJson() throws IOException {
    Path file = dir.resolve("Lakehouse/L/Tables/A.B.sql");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "/*\nTable ID: A.B\nDescription: x\n*/\nselect a\n");
    CliRun r = run("build", "--workspace", dir.toString(), "--format", "json");
    assertEquals(1, r.exit());
    assertTrue(r.out().startsWith("{\"findings\":[{"), r.out());
    assertTrue(r.out().contains("\"errorClass\":\"WEAVER_CHECK_FAILED\""), r.out());
  }

  @Test
  void textFormatIsCompilerStyle() throws IOException {
    Path file = dir.resolve("Lakehouse/L/Tables/A.B.sql");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "/*\nTable ID: A.B\nDescription: x\n*/\nselect a\n");
    CliRun r = run("check", "--workspace", dir.toString());
    assertEquals(1, r.exit());
    assertTrue(r.out().startsWith("Lakehouse/L/Tables/A.B.sql:5:9: error: "), r.out());
    assertTrue(r.out().contains("[statement-terminator]"), r.out());
  }

  @Test
  void warningsAloneExitZero() throws IOException {
    Path file = dir.resolve("Lakehouse/L/Tables/A.B.sql");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file, "/*\nTable ID: A.B\nDescription: x\nDependencies: [Files/Raw.Feed]\n*/\nselect a;\n");
    CliRun r = run("check", "--workspace", dir.toString(), "--format", "json");
    assertEquals(0, r.exit(), r.out());
    assertTrue(r.out().contains("\"severity\":\"warning\""), r.out());
  }

  @Test
  void usageErrorsExitTwoWithHelp() {
    CliRun unknownCommand = run("chek");
    assertEquals(2, unknownCommand.exit());
    assertTrue(unknownCommand.err().contains("unknown command 'chek'"));
    assertTrue(unknownCommand.err().contains("usage: weaver"));

    CliRun unknownOption = run("check", "--colour");
    assertEquals(2, unknownOption.exit());
    assertTrue(unknownOption.err().contains("unknown option '--colour'"));

    CliRun missingWorkspace = run("check", "--workspace", dir.resolve("nope").toString());
    assertEquals(2, missingWorkspace.exit());
    assertTrue(missingWorkspace.err().contains("is not a directory"));

    CliRun badFormat = run("check", "--workspace", dir.toString(), "--format", "xml");
    assertEquals(2, badFormat.exit());

    CliRun noCommand = run();
    assertEquals(2, noCommand.exit());

    CliRun optionOfOtherCommand = run("check", "--waive-stability-gates");
    assertEquals(2, optionOfOtherCommand.exit());
  }

  @Test
  void helpExitsZero() {
    CliRun r = run("--help");
    assertEquals(0, r.exit());
    assertTrue(r.out().contains("usage: weaver"));
    CliRun help = run("help");
    assertEquals(0, help.exit());
    assertTrue(help.out().contains("commands:"));
    CliRun checkHelp = run("check", "--help");
    assertEquals(0, checkHelp.exit());
  }
}
