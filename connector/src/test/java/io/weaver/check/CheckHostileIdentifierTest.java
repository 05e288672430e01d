package io.weaver.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    for (String column : List.of("a;b", "a b", "a=b", "a(b)", "a,b", "{a}")) {
      TestWorkspace one = new TestWorkspace(dir.resolve("c" + Math.abs(column.hashCode())));
      one.sql(
          "L",
          "A.B",
          "Table ID: A.B\nDescription: x\nSchema:\n  \"" + column + "\": int\n",
          "select 1 as `" + column + "`;\n");
      Finding f = one.expect("invalid-value", 0);
      assertTrue(f.message().contains("Delta"), column + ": " + f.message());
    }
  }

  /** CR, LF, TAB, NUL, DEL and C1 as YAML double-quoted escapes, and as the message shows them. */
  private static final String[][] CONTROLS = {
    {"\\r", "\\r"},
    {"\\n", "\\n"},
    {"\\t", "\\t"},
    {"\\0", "\\0"},
    {"\\x7F", "\\u007F"},
    {"\\x85", "\\u0085"},
    {"\\x01", "\\u0001"}
  };

  @Test
  void controlCharactersInColumnAndKeyNamesAreRefusedForEveryTarget() {
    for (String[] control : CONTROLS) {
      String yaml = "a" + control[0] + "DROP TABLE y --";
      String shown = "a" + control[1] + "DROP TABLE y --";
      for (boolean warehouse : new boolean[] {false, true}) {
        TestWorkspace one =
            new TestWorkspace(dir.resolve((warehouse ? "w" : "l") + Math.abs(yaml.hashCode())));
        String header =
            "Table ID: A.B\nDescription: x\nPrimary key: id\nUnique keys:\n  - \""
                + yaml
                + "\"\nNot null:\n  - \""
                + yaml
                + "\"\nSchema:\n  id: int\n  \""
                + yaml
                + "\": int\n";
        if (warehouse) {
          one.tsql("W", "A.B", header, "select id, x from src\n");
        } else {
          one.sql("L", "A.B", header, "select id, x from src;\n");
        }
        List<Finding> hits = one.findings("control-character");
        String what = (warehouse ? "Warehouse " : "Lakehouse ") + yaml;
        // Unique keys (line 6), Not null (line 7), Schema (line 11): each at its own line.
        assertEquals(
            List.of(6, 7, 11),
            hits.stream().map(Finding::line).sorted().toList(),
            what + ": " + TestWorkspace.describe(hits));
        for (Finding f : hits) {
          assertEquals(Severity.ERROR, f.severity());
          assertTrue(f.message().contains("'" + shown + "'"), what + ": " + f.message());
          assertTrue(f.message().contains("rename the column"), what + ": " + f.message());
          assertTrue(f.message().chars().noneMatch(c -> c < 0x20 || c == 0x7F), f.message());
        }
      }
    }
  }

  @Test
  void controlCharactersInQueryColumnsAndTableIdsAreRefused() {
    ws.tsql("W", "A.B", "Table ID: A.B\nDescription: x\n", "select 1 as [a\r\nb]\n");
    Finding column = ws.expect("control-character", 5);
    assertTrue(column.message().contains("'a\\r\\nb' in the query result"), column.message());

    TestWorkspace ids = new TestWorkspace(dir.resolve("ids"));
    ids.write(
        "Warehouse/W/A.B.sql",
        "/*\nTable ID: \"A.B\\n--\"\nDescription: x\nDependencies:\n  - \"A.C\\tD\"\n*/\n"
            + "select 1 as id\n");
    List<Finding> hits = ids.findings("control-character");
    assertEquals(
        List.of(2, 5), hits.stream().map(Finding::line).toList(), TestWorkspace.describe(hits));
    assertTrue(hits.get(0).message().contains("'A.B\\n--'"), hits.get(0).message());
    assertTrue(hits.get(1).message().contains("'A.C\\tD'"), hits.get(1).message());
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
