package io.weaver.check;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.findings.Finding;
import io.weaver.findings.Severity;
import io.weaver.lakehouse.LakehouseLayout;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile names that Check must refuse with a finding (docs/reliability.md, "Identifiers"): Table
 * IDs, item folders and file names outside the identifier rule, column names Delta cannot store,
 * and any name that would leave the lakehouse root. (Names Check accepts are loaded literally by
 * {@code io.weaver.reliability.HostileIdentifierLoadTest}.)
 */
class CheckHostileIdentifierTest {
  @TempDir Path dir;
  private TestWorkspace ws;

  @BeforeEach
  void setUp() {
    ws = new TestWorkspace(dir);
  }

  private static final String BODY = "select 1 as id;\n";

  @Test
  void tableIdsOutsideTheIdentifierRuleAreRefused() {
    for (String id :
        List.of(
            "A.B; drop table x",
            "A.B--x",
            "A.`B`",
            "A.B C",
            "A..B",
            "A.B.C",
            "delta.`/tmp/x`",
            "A.select\u00e9",
            "A." + "b".repeat(129))) {
      TestWorkspace one = new TestWorkspace(dir.resolve("w" + Math.abs(id.hashCode())));
      one.write(
          "Lakehouse/L/Tables/A.B.sql",
          "/*\nTable ID: \"" + id.replace("\"", "\\\"") + "\"\nDescription: x\n*/\n" + BODY);
      List<Finding> findings = one.check();
      assertTrue(
          findings.stream()
              .anyMatch(
                  f ->
                      (f.rule().equals("invalid-value") || f.rule().equals("id-mismatch"))
                          && f.severity() == Severity.ERROR),
          id + ": " + TestWorkspace.describe(findings));
    }
  }

  @Test
  void hostileFileAndItemNamesAreReportedNotLoaded() {
    ws.write("Lakehouse/L/Tables/A.B;drop.sql", "/*\nTable ID: A.B\nDescription: x\n*/\n" + BODY);
    ws.write("Lakehouse/L/Tables/A.B--c.sql", "/*\nTable ID: A.B\nDescription: x\n*/\n" + BODY);
    ws.write("Lakehouse/L x/Tables/A.B.sql", "/*\nTable ID: A.B\nDescription: x\n*/\n" + BODY);
    ws.write("Lakehouse/L`q/Tables/A.B.sql", "/*\nTable ID: A.B\nDescription: x\n*/\n" + BODY);
    List<Finding> findings = ws.check();
    for (String name : List.of("A.B;drop.sql", "A.B--c.sql", "L x", "L`q")) {
      assertTrue(
          findings.stream()
              .anyMatch(f -> f.path().contains(name) && f.severity() == Severity.ERROR),
          name + ": " + TestWorkspace.describe(findings));
    }
  }

  @Test
  void columnNamesDeltaCannotStoreAreRefused() {
    for (String column : List.of("a;b", "a b", "a=b", "a(b)", "a,b", "a\tb", "{a}")) {
      TestWorkspace one = new TestWorkspace(dir.resolve("c" + Math.abs(column.hashCode())));
      one.sql(
          "L",
          "A.B",
          "Table ID: A.B\nDescription: x\nSchema:\n  \""
              + column.replace("\t", "\\t")
              + "\": int\n",
          "select 1 as `" + column + "`;\n");
      Finding f = one.expect("invalid-value", 0);
      assertTrue(f.message().contains("Delta"), column + ": " + f.message());
    }
  }

  @Test
  void managedColumnNamesInAnyCaseAreRefused() {
    ws.sql(
        "L",
        "A.B",
        "Table ID: A.B\nDescription: x\nSchema:\n  ROW_INSERT_DATETIME: int\n",
        "select 1 as ROW_INSERT_DATETIME;\n");
    ws.expect("managed-name", 0);
  }

  @Test
  void noNameLeavesTheLakehouseRoot() {
    LakehouseLayout layout = LakehouseLayout.at(dir.resolve("lake").toString());
    for (String[] bad :
        new String[][] {
          {"..", "A", "B"},
          {"L", "..", "B"},
          {"L", "A", ".."},
          {"L", "A/../../x", "B"},
          {"L", "A", "B/../../x"},
          {"/etc", "A", "B"},
          {"L", "A", "B\u0000"},
          {"L", "A\\..\\x", "B"}
        }) {
      assertThrows(
          IllegalArgumentException.class,
          () -> layout.tablePath(bad[0], bad[1], bad[2]),
          String.join(" / ", bad));
    }
    assertThrows(IllegalArgumentException.class, () -> layout.cataloguePath("..", "LoadState"));
    assertThrows(IllegalArgumentException.class, () -> layout.cataloguePath("L", "../x"));
    String ok = layout.tablePath("L", "A", "B");
    assertTrue(ok.startsWith(layout.root()), ok);
    assertFalse(ok.contains(".."), ok);
  }
}
