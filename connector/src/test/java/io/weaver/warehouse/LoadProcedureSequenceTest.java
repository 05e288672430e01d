package io.weaver.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.check.Check;
import io.weaver.metadata.TableDeclaration;
import io.weaver.testing.WorkspaceFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the generated load procedure does with a {@code Sequence column} (docs/table-contract.md,
 * "Sequence column"), as the Lakehouse engine does it: staging rows ranked newest first per key, a
 * tie on the key's highest value failing the load, superseded rows and rows older than the target
 * row counted stale and never applied, and the count in {@code rows_stale}. The golden
 * Sales.Shipment shows one such procedure whole; this pins the parts, and that a Table without a
 * sequence column generates none of them.
 */
class LoadProcedureSequenceTest {
  private static final String RANKING =
      "RANK() OVER (PARTITION BY x.[id] ORDER BY x.[changed_at] DESC) AS [__weaver_rank]";

  @TempDir Path dir;

  @Test
  void ranksEachKeysRowsNewestFirstAfterTheNullChecks() {
    String p = procedure("Sequence column: changed_at\n", false);
    assertTrue(p.contains("[__weaver_rank] bigint NULL"), p);
    assertTrue(p.contains(RANKING), p);
    assertTrue(p.contains("FROM #weaver_staging AS x GROUP BY x.[id], x.[changed_at]"), p);
    assertTrue(p.contains(") AS r ON r.[id] = s.[id] AND r.[changed_at] = s.[changed_at];"), p);
    // A null sequence value fails like a null key, before the ranking and anything written.
    int nulls = p.indexOf("WHERE [changed_at] IS NULL)");
    assertTrue(nulls > 0 && nulls < p.indexOf(RANKING), p);
    assertTrue(p.contains("N' null(s) in sequence column'"), p);
    assertTrue(p.indexOf(RANKING) < p.indexOf("BEGIN TRANSACTION;"), p);
  }

  @Test
  void aTieOnTheKeysHighestValueFailsInsteadOfTheDuplicateKeyCheck() {
    String p = procedure("Sequence column: changed_at\n", false);
    assertTrue(
        p.contains(
            "IF EXISTS (SELECT 1 FROM #weaver_staging WHERE [__weaver_rank] = 1 GROUP BY [id]"
                + " HAVING COUNT_BIG(*) > 1)"),
        p);
    assertTrue(
        p.contains(
            "primary key id: row(s) repeat their key''s highest changed_at, so which one is newest"
                + " is unknown; sample keys "),
        p);
    assertTrue(
        p.contains("WHERE x.[__weaver_rank] = 1 GROUP BY x.[id] HAVING COUNT_BIG(*) > 1"), p);
    // Several rows of one key are allowed: only the newest value may not repeat.
    assertFalse(p.contains("duplicate row(s)"), p);
  }

  @Test
  void supersededRowsAreCountedAndLeftOutBeforeChangeDetection() {
    String p = procedure("Sequence column: changed_at\n", false);
    int counted =
        p.indexOf(
            "DECLARE @weaver_superseded bigint = (SELECT COUNT_BIG(*) FROM #weaver_staging WHERE"
                + " [__weaver_rank] > 1);");
    int removed = p.indexOf("DELETE FROM #weaver_staging WHERE [__weaver_rank] > 1;");
    int change = p.indexOf("CREATE TABLE #weaver_change");
    assertTrue(counted > 0 && removed > counted && change > removed, p);
  }

  @Test
  void staleIsDecidedAfterUnchangedAndBeforeUpdateOrRevive() {
    String p = procedure("Sequence column: changed_at\n", false);
    assertTrue(
        p.contains(
            "CASE WHEN t.[id] IS NULL THEN 'I'"
                + " WHEN t.[Row delete datetime] = @weaver_live"
                + " AND t.[Row signature] = s.[__weaver_signature] THEN 'N'"
                + " WHEN s.[changed_at] < t.[changed_at] THEN 'S'"
                + " WHEN t.[Row delete datetime] <> @weaver_live THEN 'R' ELSE 'U' END"),
        p);
    // A stale row's key is present: only keys missing from staging are deleted as absent.
    assertTrue(p.contains("AND NOT EXISTS (SELECT 1 FROM #weaver_staging AS s"), p);
    // Nothing writes class S.
    assertFalse(p.contains("IN ('U', 'R', 'S')"), p);
    assertTrue(
        p.contains("WHERE c.[__weaver_op] IN ('U', 'R') AND c.[__weaver_reject] IS NULL;"), p);
  }

  @Test
  void quarantineComesBeforeInsertAndStale() {
    String p =
        procedure(
            "Sequence column: changed_at\nExpectations:\n  positive:\n    rule: v > 0\n"
                + "    on violation: quarantine\n",
            false);
    assertTrue(
        p.contains("CASE WHEN s.[__weaver_expect_1] = 1 THEN 'Q' WHEN t.[id] IS NULL THEN 'I'"), p);
    // Expectations are counted over every staging row, before superseded rows leave staging; the
    // quarantine rows written later are the keys' newest rows only.
    int counted = p.indexOf("@weaver_staged = COUNT_BIG(*)");
    int removed = p.indexOf("DELETE FROM #weaver_staging WHERE [__weaver_rank] > 1;");
    int quarantine = p.indexOf("INSERT INTO [_].[LoadQuarantine]");
    assertTrue(counted > 0 && removed > counted && quarantine > removed, p);
  }

  @Test
  void staleRowsAreRecordedAndAnsweredAsRowsStale() {
    String p = procedure("Sequence column: changed_at\n", false);
    assertTrue(
        p.contains(
            "DECLARE @weaver_stale bigint = @weaver_superseded + (SELECT COUNT_BIG(*) FROM"
                + " #weaver_change WHERE [__weaver_op] = 'S');"),
        p);
    assertTrue(p.contains("[gates_waived], [message], [rows_stale])"), p);
    assertTrue(p.contains("@weaver_refusal, @weaver_stale);"), p);
    // Both answers (a new load, and a load id already applied) carry it.
    assertEquals(2, count(p, "[gates_waived], [rows_stale], CAST("), p);
  }

  @Test
  void aTableWithoutASequenceColumnGeneratesNoneOfIt() {
    String p = procedure("", false);
    for (String absent :
        List.of("__weaver_rank", "rows_stale", "@weaver_stale", "'S'", "RANK() OVER")) {
      assertFalse(p.contains(absent), absent + " in\n" + p);
    }
    assertTrue(p.contains("duplicate row(s); sample keys "), p);
    assertTrue(
        p.contains(
            "WHEN t.[Row delete datetime] <> @weaver_live THEN 'R'"
                + " WHEN t.[Row signature] <> s.[__weaver_signature] THEN 'U' ELSE 'N' END"),
        p);
  }

  @Test
  void anIncrementalTableWithDeleteKeysRanksToo() {
    String p = procedure("Incremental: true\nSequence column: changed_at\n", true);
    assertTrue(p.contains(RANKING), p);
    assertTrue(p.contains("AND EXISTS (SELECT 1 FROM #weaver_delete_keys AS d"), p);
    assertTrue(p.contains("THEN 'S'"), p);
  }

  private String procedure(String more, boolean deleteKeys) {
    String body = "select id, v, changed_at from src.rows\n";
    if (deleteKeys) {
      body =
          "select id, v, changed_at from src.rows where kind <> 'D';\n\n"
              + "select id from src.rows where kind = 'D';\n";
    }
    new WorkspaceFiles(dir)
        .tsql(
            "Sales",
            "Sales.Event",
            WorkspaceFiles.header(
                "Sales.Event",
                "sequence",
                "Primary key: id\n"
                    + more
                    + "Schema:\n  id: bigint\n  v: int\n  changed_at: datetime2(6)\n"),
            body);
    Check.Result checked = Check.analyze(dir);
    List<TableDeclaration> tables = checked.validModel().tables();
    assertEquals(1, tables.size(), checked.report().toString());
    WarehouseTable table = WarehouseTable.declared(tables.get(0)).orElseThrow();
    return LoadProcedure.of(table, DmlForm.UPDATE_INSERT).sql();
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
