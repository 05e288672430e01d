package io.weaver.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.check.Check;
import io.weaver.findings.Finding;
import io.weaver.findings.RuleIds;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlToken;
import io.weaver.metadata.sql.SqlTokenizer;
import io.weaver.testing.WorkspaceFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A column name with a line break must never turn generated T-SQL into code: brackets keep it a
 * name in statements, and in comments it is written escaped. Check refuses such a name anyway; the
 * generators must be safe on their own (a shape described by the endpoint is never checked).
 */
class CommentInjectionTest {
  private static final String COLUMN = "a\nDROP TABLE y --";

  @TempDir Path dir;

  @Test
  void aLineBreakInAKeyColumnNameStaysInsideTheGeneratedComment() {
    new WorkspaceFiles(dir)
        .tsql(
            "Sales",
            "Sales.Injected",
            "Table ID: Sales.Injected\n"
                + "Description: a column name with a line break\n"
                + "Primary key: id\n"
                + "Unique keys:\n"
                + "  - \"a\\nDROP TABLE y --\"\n"
                + "Schema:\n"
                + "  id: bigint\n"
                + "  \"a\\nDROP TABLE y --\": int\n",
            "select id, [a\nDROP TABLE y --] from src\n");
    Check.Result checked = Check.analyze(dir);
    List<Finding> refused =
        checked.report().findings().stream()
            .filter(f -> f.rule().equals(RuleIds.CONTROL_CHARACTER))
            .toList();
    assertFalse(refused.isEmpty(), "Check refuses it: " + checked.report().findings());
    assertTrue(
        refused.stream()
            .allMatch(f -> f.message().contains("'a\\nDROP TABLE y --'") && f.line() > 0),
        refused.toString());

    TableDeclaration t = checked.model().tables().get(0);
    WarehouseTable table = WarehouseTable.declared(t).orElseThrow();
    assertTrue(table.columns().stream().anyMatch(c -> c.name().equals(COLUMN)));
    for (DmlForm form : DmlForm.values()) {
      for (Batch b : WarehouseScript.table(table, form)) {
        assertFalse(
            dropsY(SqlTokenizer.tokenize(b.sql(), SqlDialect.TSQL, 1, 1)),
            b.name() + " (" + form + ") runs the injected text as code:\n" + b.sql());
        for (String line : b.sql().split("\n", -1)) {
          // Inside brackets the line break is part of the name; anywhere else it would be code.
          assertFalse(
              line.strip().startsWith("DROP TABLE y")
                  && !line.strip().startsWith("DROP TABLE y --]"),
              b.name()
                  + " ("
                  + form
                  + ") has a line that begins with the injected text:\n"
                  + b.sql());
        }
      }
    }
    String procedure = LoadProcedure.of(table, DmlForm.UPDATE_INSERT).sql();
    assertTrue(
        procedure.contains("-- Unique key 1 (a\\nDROP TABLE y --): reason unique-key:1."),
        procedure);
  }

  /** Whether the tokens hold the statement {@code DROP TABLE y}: words, not inside a name. */
  private static boolean dropsY(List<SqlToken> tokens) {
    for (int i = 0; i + 2 < tokens.size(); i++) {
      if (tokens.get(i).isWord("DROP")
          && tokens.get(i + 1).isWord("TABLE")
          && tokens.get(i + 2).isWord("Y")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void commentTextHasNoLineBreakAndClosesNoBlockComment() {
    assertEquals("a\\r\\n\\t\\0\\u007F\\u2028b", TsqlNames.comment("a\r\n\t\0\u007F\u2028b"));
    assertEquals("x * / y / * z", TsqlNames.comment("x */ y /* z"));
    assertEquals("plain [name]", TsqlNames.comment("plain [name]"));
  }
}
