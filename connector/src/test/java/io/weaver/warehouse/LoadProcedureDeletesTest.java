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
 * What the generated load procedure does with the keys a load deletes under each {@code Deletes}
 * mode (docs/table-contract.md, "Deletes"): which keys become class D, and whether class D is
 * soft-deleted or removed. The goldens show one hard and one keep Table whole; this pins the
 * combinations they do not (snapshot hard, incremental keep with delete keys).
 */
class LoadProcedureDeletesTest {
  private static final String ABSENT_D = "AND NOT EXISTS (SELECT 1 FROM #weaver_staging AS s";
  private static final String DELETE_KEY_D = "AND EXISTS (SELECT 1 FROM #weaver_delete_keys AS d";
  private static final String SOFT = "UPDATE t SET [Row delete datetime] = @load_timestamp";

  @TempDir Path dir;

  @Test
  void softMarksAbsentKeysDeleted() {
    String p = procedure("Sales.Soft", "Deletes: soft\n", false);
    assertTrue(p.contains(ABSENT_D), p);
    assertTrue(p.contains(SOFT), p);
    assertFalse(p.contains("DELETE FROM [Sales].[Soft]"), p);
  }

  @Test
  void hardRemovesAbsentKeysAfterTakingTheirImages() {
    String p = procedure("Sales.Hard", "Deletes: hard\n", false);
    assertTrue(p.contains(ABSENT_D), p);
    assertFalse(p.contains(SOFT), p);
    int image = p.indexOf("c.[__weaver_op] IN ('U', 'R', 'D')");
    int removal = p.indexOf("DELETE FROM [Sales].[Hard] WHERE EXISTS (");
    assertTrue(image > 0 && removal > image, "the image is saved before the row goes:\n" + p);
    assertTrue(p.indexOf("BEGIN TRANSACTION;") < image, p);
    // A returning key finds no row: it is an insert, with a new Identity value.
    assertTrue(p.contains("WHEN t.[id] IS NULL THEN 'I'"), p);
    assertEquals(1, count(p, "DELETE FROM [Sales].[Hard]"), p);
  }

  @Test
  void keepLeavesAbsentKeysOutOfTheDeletesAndTheGate() {
    String p = procedure("Sales.Keep", "Deletes: keep\n", false);
    assertFalse(p.contains(ABSENT_D), p);
    assertFalse(p.contains(SOFT), p);
    assertTrue(p.contains("Deletes: keep. Absent keys stay live"), p);
    // The gate and the live count after still read the D count, which absent keys are not in.
    assertTrue(p.contains("IF @weaver_deleted > 0 AND 100 * @weaver_deleted >= 10"), p);
    assertTrue(
        p.contains("@weaver_live_before + @weaver_inserted + @weaver_revived - @weaver_deleted"),
        p);
  }

  @Test
  void keepStillSoftDeletesTheDeleteKeysOfAnIncrementalBody() {
    String p = procedure("Sales.KeepIncremental", "Incremental: true\nDeletes: keep\n", true);
    assertTrue(p.contains(DELETE_KEY_D), p);
    assertTrue(p.contains(SOFT), p);
    assertFalse(p.contains(ABSENT_D), p);
  }

  @Test
  void hardRemovesTheDeleteKeysOfAnIncrementalBody() {
    String p = procedure("Sales.HardIncremental", "Incremental: true\nDeletes: hard\n", true);
    assertTrue(p.contains(DELETE_KEY_D), p);
    assertTrue(p.contains("DELETE FROM [Sales].[HardIncremental] WHERE EXISTS ("), p);
    assertFalse(p.contains(SOFT), p);
  }

  @Test
  void hardDeletesNameTheTargetsRowsWithoutAThreePartColumnName() {
    String p = procedure("Sales.Hard", "Deletes: hard\n", false);
    assertTrue(p.contains("SELECT 1 FROM #weaver_change AS c WHERE c.[__weaver_op] = 'D'\n"), p);
    assertTrue(p.contains("AND c.[id] = [Hard].[id]);"), p);
    assertFalse(p.contains("[Sales].[Hard].[id]"), p);
    String restore = RestoreProcedure.of(table).sql();
    assertTrue(restore.contains("u.[id] = [Hard].[id]);"), restore);
    assertFalse(restore.contains("[Sales].[Hard].[id]"), restore);
  }

  @Test
  void aTableNamedLikeTheSubqueryAliasIsNotHiddenByIt() {
    String p = procedure("Sales.c", "Deletes: hard\n", false);
    assertTrue(p.contains("SELECT 1 FROM #weaver_change AS c_other WHERE"), p);
    assertTrue(p.contains("AND c_other.[id] = [c].[id]);"), p);
    procedure("Sales.U", "Deletes: hard\n", false);
    String restore = RestoreProcedure.of(table).sql();
    assertTrue(restore.contains("u_other.[id] = [U].[id]);"), restore);
  }

  private WarehouseTable table;

  private String procedure(String id, String more, boolean deleteKeys) {
    String body = "select id, v from src.rows\n";
    if (deleteKeys) {
      body =
          "select id, v from src.rows where kind <> 'D';\n\nselect id from src.rows where kind = 'D';\n";
    }
    new WorkspaceFiles(dir)
        .tsql(
            "Sales",
            id,
            WorkspaceFiles.header(
                id,
                "deletes",
                "Primary key: id\nIdentity: row_key\nDelete percentage threshold: 10\n"
                    + more
                    + "Schema:\n  id: bigint\n  v: int\n"),
            body);
    Check.Result checked = Check.analyze(dir);
    List<TableDeclaration> tables = checked.validModel().tables();
    TableDeclaration t =
        tables.stream().filter(d -> d.tableId().toString().equals(id)).findFirst().orElseThrow();
    table = WarehouseTable.declared(t).orElseThrow();
    String update = LoadProcedure.of(table, DmlForm.UPDATE_INSERT).sql();
    String merge = LoadProcedure.of(table, DmlForm.MERGE).sql();
    assertEquals(
        update.contains(SOFT), merge.contains(SOFT), "both DML forms delete alike:\n" + merge);
    return update;
  }

  private static int count(String text, String part) {
    return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
  }
}
