package io.weaver.check;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.findings.Finding;
import io.weaver.findings.Severity;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile headers through the whole of Check (docs/reliability.md, "YAML"): each becomes one clear
 * finding on the right file, within a time bound and an allocation bound measured on the checking
 * thread. ({@code SafeYamlTest} and {@link CheckHostileInputTest} cover the parser's own limits.)
 */
class CheckHostileYamlTest {
  /** Bytes Check may allocate for one hostile file; a bomb expanding would need far more. */
  private static final long MAX_ALLOCATED = 512L * 1024 * 1024;

  @TempDir Path dir;
  private TestWorkspace ws;

  @BeforeEach
  void setUp() {
    ws = new TestWorkspace(dir);
  }

  /** Runs Check under the bounds and returns its findings. */
  private List<Finding> bounded(Supplier<List<Finding>> check) {
    return assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () -> {
          var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
          long id = Thread.currentThread().getId();
          long before = threads.getThreadAllocatedBytes(id);
          List<Finding> findings = check.get();
          long allocated = threads.getThreadAllocatedBytes(id) - before;
          assertTrue(allocated < MAX_ALLOCATED, "Check allocated " + allocated + " bytes");
          return findings;
        });
  }

  private void expectRule(List<Finding> findings, String rule, String fileName) {
    assertTrue(
        findings.stream()
            .anyMatch(
                f ->
                    f.rule().equals(rule)
                        && f.path().contains(fileName)
                        && f.severity() == Severity.ERROR
                        && f.message().length() > 20),
        "expected " + rule + " on " + fileName + ":\n" + TestWorkspace.describe(findings));
  }

  @Test
  void tagsOfEveryKindAreRefused() {
    List<String> tags =
        List.of(
            "!!python/object/apply:os.system ['id']",
            "!!java.io.FileInputStream [/etc/passwd]",
            "!<tag:yaml.org,2002:java.net.URL> [\"http://x/\"]",
            "!!binary aGVsbG8=",
            "!local x",
            "!!set {a, b}",
            "!!omap [a: 1]");
    for (int i = 0; i < tags.size(); i++) {
      ws.sql(
          "L",
          "T.Tag" + i,
          "Table ID: T.Tag" + i + "\nDescription: " + tags.get(i) + "\n",
          "select 1 as a;\n");
    }
    List<Finding> findings = bounded(ws::check);
    for (int i = 0; i < tags.size(); i++) {
      expectRule(findings, "header-invalid", "T.Tag" + i + ".sql");
    }
  }

  @Test
  void aliasBombsOfEveryShapeAreRefusedCheaply() {
    // Nested sequences, nested mappings and merge keys, each ten levels of ten.
    StringBuilder seq =
        new StringBuilder("Table ID: B.Seq\nDescription: x\nl0: &l0 [x,x,x,x,x,x,x,x,x,x]\n");
    StringBuilder map =
        new StringBuilder("Table ID: B.Map\nDescription: x\nm0: &m0 {a: x, b: x}\n");
    StringBuilder merge = new StringBuilder("Table ID: B.Merge\nDescription: x\nk0: &k0 {a: 1}\n");
    for (int level = 1; level <= 10; level++) {
      seq.append("l").append(level).append(": &l").append(level).append(" [");
      map.append("m").append(level).append(": &m").append(level).append(" {");
      for (int j = 0; j < 10; j++) {
        seq.append(j == 0 ? "" : ",").append("*l").append(level - 1);
        map.append(j == 0 ? "" : ", ").append("k").append(j).append(": *m").append(level - 1);
      }
      seq.append("]\n");
      map.append("}\n");
      merge
          .append("k")
          .append(level)
          .append(": &k")
          .append(level)
          .append(" {<<: *k")
          .append(level - 1)
          .append(", b")
          .append(level)
          .append(": 2}\n");
    }
    ws.sql("L", "B.Seq", seq.toString(), "select 1 as a;\n");
    ws.sql("L", "B.Map", map.toString(), "select 1 as a;\n");
    ws.sql("L", "B.Merge", merge.toString(), "select 1 as a;\n");
    List<Finding> findings = bounded(ws::check);
    expectRule(findings, "header-invalid", "B.Seq.sql");
    expectRule(findings, "header-invalid", "B.Map.sql");
    expectRule(findings, "header-invalid", "B.Merge.sql");
  }

  @Test
  void deepNestingAndHugeDocumentsAreRefused() {
    ws.sql(
        "L",
        "D.Flow",
        "Table ID: D.Flow\nDescription: x\nz: " + "[".repeat(100_000) + "\n",
        "select 1 as a;\n");
    StringBuilder block = new StringBuilder("Table ID: D.Block\nDescription: x\n");
    for (int i = 0; i < 200; i++) {
      block.append(" ".repeat(i)).append("k").append(i).append(":\n");
    }
    ws.sql("L", "D.Block", block.toString(), "select 1 as a;\n");
    ws.sql(
        "L",
        "D.Huge",
        "Table ID: D.Huge\nDescription: " + "x".repeat(3_000_000) + "\n",
        "select 1 as a;\n");
    StringBuilder many = new StringBuilder("Table ID: D.Many\nDescription: x\n");
    for (int i = 0; i < 30_000; i++) {
      many.append("k").append(i).append(": v\n");
    }
    ws.sql("L", "D.Many", many.toString(), "select 1 as a;\n");
    List<Finding> findings = bounded(ws::check);
    for (String name : List.of("D.Flow.sql", "D.Block.sql", "D.Huge.sql", "D.Many.sql")) {
      assertTrue(
          findings.stream()
              .anyMatch(
                  f ->
                      f.path().contains(name)
                          && f.severity() == Severity.ERROR
                          && f.message().length() > 20),
          name + ":\n" + TestWorkspace.describe(findings));
    }
  }

  @Test
  void nonUtf8BytesOfEveryKindAreEncodingFindings() {
    byte[][] bodies = {
      {(byte) 0xFF, (byte) 0xFE, '/', 0, '*', 0}, // UTF-16 LE with BOM
      {(byte) 0xC0, (byte) 0xAF}, // overlong '/'
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // an encoded surrogate
      {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, // 5-byte form
      {(byte) 0x80}, // a lone continuation byte
    };
    for (int i = 0; i < bodies.length; i++) {
      byte[] head =
          ("/*\nTable ID: E.Enc" + i + "\nDescription: ").getBytes(StandardCharsets.UTF_8);
      byte[] tail = "\n*/\nselect 1 as a;\n".getBytes(StandardCharsets.UTF_8);
      byte[] content = new byte[head.length + bodies[i].length + tail.length];
      System.arraycopy(head, 0, content, 0, head.length);
      System.arraycopy(bodies[i], 0, content, head.length, bodies[i].length);
      System.arraycopy(tail, 0, content, head.length + bodies[i].length, tail.length);
      ws.writeBytes("Lakehouse/L/Tables/E.Enc" + i + ".sql", content);
    }
    List<Finding> findings = bounded(ws::check);
    for (int i = 0; i < bodies.length; i++) {
      expectRule(findings, "encoding", "E.Enc" + i + ".sql");
    }
  }

  @Test
  void controlCharactersAndSeveralDocumentsAreReported() {
    ws.sql("L", "C.Nul", "Table ID: C.Nul\nDescription: a\u0000b\n", "select 1 as a;\n");
    ws.sql(
        "L",
        "C.Docs",
        "Table ID: C.Docs\nDescription: x\n---\nTable ID: C.Other\n",
        "select 1 as a;\n");
    List<Finding> findings = bounded(ws::check);
    expectRule(findings, "header-invalid", "C.Nul.sql");
    expectRule(findings, "header-invalid", "C.Docs.sql");
  }
}
