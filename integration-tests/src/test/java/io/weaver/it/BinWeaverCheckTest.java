package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code bin/weaver} as a user does, in a child process, against the packaged jars. */
class BinWeaverCheckTest {
  @TempDir Path dir;

  static Path projectRoot() {
    return Path.of(System.getProperty("weaver.projectRoot", "..")).toAbsolutePath().normalize();
  }

  record Result(int exit, String out, String err) {}

  static Result weaver(String... args) throws IOException, InterruptedException {
    return weaver(java.util.Map.of(), args);
  }

  /** Runs bin/weaver with extra environment variables. */
  static Result weaver(java.util.Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>();
    command.add(projectRoot().resolve("bin/weaver").toString());
    command.addAll(List.of(args));
    Path out = Files.createTempFile("weaver-out", ".txt");
    Path err = Files.createTempFile("weaver-err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(projectRoot().toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("bin/weaver did not finish in 10 minutes");
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void checkOfTheExampleIsCleanAsJson() throws Exception {
    Result r = weaver("check", "--workspace", "examples/logistics", "--format", "json");
    assertEquals(0, r.exit(), r.err());
    assertEquals("{\"findings\":[]}", r.out().strip());
  }

  @Test
  void checkOfABrokenWorkspaceExitsOneWithFindings() throws Exception {
    Path file = dir.resolve("Lakehouse/L/Tables/A.B.sql");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file, "/*\nTable ID: A.B\nDescription: x\nIncremental: true\n*/\nselect a;\n");
    Result r = weaver("check", "--workspace", dir.toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(
        r.out().contains("Lakehouse/L/Tables/A.B.sql:4:1: error:")
            && r.out().contains("[incremental-without-key]"),
        r.out());
  }

  @Test
  void usageErrorExitsTwo() throws Exception {
    Result r = weaver("frobnicate");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("unknown command 'frobnicate'"), r.err());
  }
}
