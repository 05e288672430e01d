package io.weaver.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.weaver.findings.Finding;
import io.weaver.testing.WorkspaceFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** A temporary workspace that tests write declarations into, then Check. */
final class TestWorkspace {
  final Path root;
  private final WorkspaceFiles files;

  TestWorkspace(Path root) {
    this.root = root;
    this.files = new WorkspaceFiles(root);
  }

  /** A Spark SQL Table {@code Lakehouse/<item>/Tables/<id>.sql} with a header and a body. */
  TestWorkspace sql(String item, String id, String header, String body) {
    files.sql(item, id, header, body);
    return this;
  }

  /** A T-SQL Table {@code Warehouse/<item>/<id>.sql}. */
  TestWorkspace tsql(String item, String id, String header, String body) {
    files.tsql(item, id, header, body);
    return this;
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
    files.py(item, id, header, code);
    return this;
  }

  TestWorkspace write(String relative, String content) {
    files.write(relative, content);
    return this;
  }

  TestWorkspace writeBytes(String relative, byte[] content) {
    files.writeBytes(relative, content);
    return this;
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
