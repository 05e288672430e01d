package io.weaver.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.weaver.findings.Finding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** A temporary workspace that tests write declarations into, then Check. */
final class TestWorkspace {
  final Path root;

  TestWorkspace(Path root) {
    this.root = root;
  }

  /** A Spark SQL Table {@code Lakehouse/<item>/Tables/<id>.sql} with a header and a body. */
  TestWorkspace sql(String item, String id, String header, String body) {
    return write("Lakehouse/" + item + "/Tables/" + id + ".sql", "/*\n" + header + "*/\n" + body);
  }

  /** A T-SQL Table {@code Warehouse/<item>/<id>.sql}. */
  TestWorkspace tsql(String item, String id, String header, String body) {
    return write("Warehouse/" + item + "/" + id + ".sql", "/*\n" + header + "*/\n" + body);
  }

  /** A Python Table with a standard class for its Table ID. */
  TestWorkspace py(String item, String id, String header) {
    String name = id.replace(".", "__");
    return py(
        item,
        id,
        header,
        "from weaver import Table\n\n\nclass "
            + name
            + "(Table):\n    def read(self):\n        return self.spark.table('x')\n");
  }

  TestWorkspace py(String item, String id, String header, String code) {
    String name = id.replace(".", "__");
    return write(
        "Lakehouse/" + item + "/Tables/" + name + ".py", "\"\"\"\n" + header + "\"\"\"\n" + code);
  }

  TestWorkspace write(String relative, String content) {
    return writeBytes(relative, content.getBytes(StandardCharsets.UTF_8));
  }

  TestWorkspace writeBytes(String relative, byte[] content) {
    try {
      Path file = root.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.write(file, content);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<Finding> check() {
    return Check.run(root).findings();
  }

  /** Asserts that {@code rule} was reported (on {@code line}, when > 0); returns the finding. */
  Finding expect(String rule, int line) {
    List<Finding> findings = check();
    List<Finding> hits = findings.stream().filter(f -> f.rule().equals(rule)).toList();
    if (hits.isEmpty()) {
      fail("expected a '" + rule + "' finding, got:\n" + describe(findings));
    }
    if (line > 0) {
      assertTrue(
          hits.stream().anyMatch(f -> f.line() == line),
          "expected '" + rule + "' on line " + line + ", got:\n" + describe(hits));
    }
    Finding hit = hits.get(0);
    assertTrue(hit.message().length() > 20, "message should say what to change: " + hit.message());
    return hit;
  }

  /** Every finding of one rule. */
  List<Finding> findings(String rule) {
    return check().stream().filter(f -> f.rule().equals(rule)).toList();
  }

  /** Asserts that the workspace is clean. */
  void expectClean() {
    List<Finding> findings = check();
    assertEquals(List.of(), findings, () -> "expected no findings, got:\n" + describe(findings));
  }

  /** Asserts that {@code rule} was not reported. */
  void expectNo(String rule) {
    List<Finding> findings = check();
    assertTrue(
        findings.stream().noneMatch(f -> f.rule().equals(rule)),
        () -> "expected no '" + rule + "' finding, got:\n" + describe(findings));
  }

  static String describe(List<Finding> findings) {
    return findings.stream().map(Finding::toText).collect(Collectors.joining("\n"));
  }
}
