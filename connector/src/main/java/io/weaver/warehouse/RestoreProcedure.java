package io.weaver.warehouse;

import static io.weaver.warehouse.TsqlNames.literal;
import static io.weaver.warehouse.TsqlNames.quote;

import io.weaver.catalogue.CatalogueTable;
import io.weaver.metadata.TableDeclaration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The generated restore procedure of a Warehouse Table, {@code [_].[Restore Schema.Object]}: {@code
 * RESTORE WEAVER TABLE … TO LOAD '<load_id>'} for a target without time travel. It undoes the loads
 * after {@code @load_id} from the Table's {@link UndoTable} — rows they inserted are removed, rows
 * they changed or deleted get back the image the first of them saved (inserted again when a hard
 * delete removed them), an unkeyed Table gets back the rows the first later load replaced — and
 * rolls {@code _.LoadState} back to that load, all in one transaction with the {@code restored}
 * history row.
 *
 * <p>Like a load, the restore first claims the next load sequence, so a load computed against the
 * rows before the restore fails at its own claim and is run again against the restored rows.
 * Parameters: {@code @load_id} (the load to restore to) and {@code @restore_id} (exactly once: an
 * id already recorded answers with its history row). Error {@link #NOT_RESTORABLE}: no such load,
 * not a succeeded one, or one a previous restore undid.
 */
public final class RestoreProcedure extends TsqlText {
  /** Error number of a load that cannot be restored to (nothing written). */
  public static final int NOT_RESTORABLE = 50030;

  private static final String FIRST = quote("__weaver_first");

  private final WarehouseTable t;

  private RestoreProcedure(WarehouseTable t) {
    this.t = t;
  }

  /** {@code [_].[Restore Schema.Object]} of a Table. */
  public static String nameOf(TableDeclaration t) {
    return TsqlNames.qualified(CatalogueDdl.SCHEMA, "Restore " + t.tableId());
  }

  /** The {@code CREATE OR ALTER PROCEDURE} batch. */
  public static Batch of(WarehouseTable t) {
    if (!t.declaration().hasLoadProcedure()) {
      throw new IllegalArgumentException(
          t.qualifiedName()
              + " declares 'Has load procedure: false': Weaver loads nothing, so restores nothing");
    }
    RestoreProcedure p = new RestoreProcedure(t);
    p.write();
    return new Batch("restore-procedure", p.text());
  }

  private void write() {
    String undo = UndoTable.name(t);
    String name = t.qualifiedName();
    procedure(
        nameOf(t.declaration()), t.tableId(), "@load_id varchar(64)", "@restore_id varchar(64)");
    line("DECLARE @weaver_message varchar(4000);");
    comment("Exactly once: a restore id already recorded answers with its history row.");
    line(
        "IF EXISTS (SELECT 1 FROM "
            + history()
            + " WHERE [load_id] = @restore_id AND [table_id] = @weaver_table_id"
            + " AND [status] = N'restored')");
    begin();
    answer("1");
    line("RETURN;");
    end();
    comment("The load restored to: a succeeded load whose mark is still in the row history.");
    line(
        "DECLARE @weaver_to bigint = (SELECT MAX("
            + UndoTable.SEQUENCE
            + ") FROM "
            + undo
            + " WHERE "
            + UndoTable.LOAD_ID
            + " = @load_id AND "
            + UndoTable.KIND
            + " = "
            + literal(UndoTable.MARK)
            + ");");
    line(
        "DECLARE @weaver_status varchar(40) = (SELECT TOP 1 [status] FROM "
            + history()
            + " WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id"
            + " ORDER BY CASE WHEN [status] = N'succeeded' THEN 0 ELSE 1 END);");
    line("IF @weaver_to IS NULL");
    begin();
    line("SET @weaver_message = CASE");
    line(
        "    WHEN @weaver_status IS NULL THEN CONCAT("
            + literal(name + " has no load '")
            + ", @load_id, "
            + literal("' in [_].[LoadHistory]; SHOW WEAVER LOADS FOR " + name + " lists its loads.")
            + ")");
    line(
        "    WHEN @weaver_status <> N'succeeded' THEN CONCAT("
            + literal("Load '")
            + ", @load_id, "
            + literal("' of " + name + " has status ")
            + ", @weaver_status, "
            + literal("; only a succeeded load can be restored to.")
            + ")");
    line(
        "    ELSE CONCAT("
            + literal("Load '")
            + ", @load_id, "
            + literal(
                "' of "
                    + name
                    + " was undone by an earlier restore, so its rows are no longer kept;"
                    + " restore to a load still in effect.")
            + ")");
    line("END;");
    line("THROW " + NOT_RESTORABLE + ", @weaver_message, 1;");
    end();
    line(
        "DECLARE @weaver_load_timestamp datetime2(6) = (SELECT MAX([load_timestamp]) FROM "
            + history()
            + " WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id"
            + " AND [status] = N'succeeded');");
    line(
        "DECLARE @weaver_sequence bigint = (SELECT [load_sequence] FROM "
            + state()
            + " WHERE [table_id] = @weaver_table_id);");
    line("DECLARE @weaver_undone bigint = (SELECT COUNT_BIG(*) FROM " + undo + laterMarks() + ");");
    line("DECLARE @weaver_removed bigint = 0, @weaver_put_back bigint = 0;");
    comment("The undo, in one transaction with the state and the history row.");
    line("BEGIN TRANSACTION;");
    claim();
    if (t.keyed()) {
      undoKeyed(undo);
    } else {
      undoReplacement(undo);
    }
    if (t.declaration().history()) {
      historyBack(undo);
    }
    comment("The undone loads' row history goes with them.");
    line("DELETE FROM " + undo + " WHERE " + UndoTable.SEQUENCE + " > @weaver_to;");
    comment("History.");
    line(
        "INSERT INTO "
            + history()
            + " ([load_id], [table_id], [status], [started_at], [finished_at], [load_timestamp],");
    line(
        "    [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected],");
    line("    [target_live_rows_before], [target_live_rows_after], [gates_waived], [message])");
    line(
        "VALUES (@restore_id, @weaver_table_id, N'restored', @weaver_started_at, SYSUTCDATETIME(),"
            + " @weaver_load_timestamp,");
    line("    0, 0, 0, 0, 0, 0,");
    line(
        "    0, (SELECT COUNT_BIG(*) FROM "
            + t.target()
            + " WHERE "
            + WarehouseNames.DELETE_TIME
            + " = "
            + WarehouseNames.LIVE_SENTINEL
            + "), 0,");
    line(
        "    CONCAT("
            + literal("restored to load ")
            + ", @load_id, N': ', @weaver_undone, "
            + literal(" later load(s) undone, ")
            + ", @weaver_put_back, "
            + literal(" row(s) put back, ")
            + ", @weaver_removed, "
            + literal(" row(s) removed; load state rolled back")
            + "));");
    line("COMMIT TRANSACTION;");
    answer("0");
    end();
  }

  /**
   * The restore's first write, as a load's: the state row moves to the next sequence (the load
   * restored to becomes the last load), or another load or restore committed first and nothing is
   * written.
   */
  private void claim() {
    comment("Claim the next load sequence: a load or restore that committed meanwhile stops this.");
    line(
        "UPDATE "
            + state()
            + " SET [last_load_id] = @load_id, [last_succeeded_at] = @weaver_load_timestamp,"
            + " [load_sequence] = [load_sequence] + 1"
            + " WHERE [table_id] = @weaver_table_id AND [load_sequence] = @weaver_sequence;");
    line("IF @@ROWCOUNT = 0");
    line(
        "    THROW "
            + LoadProcedure.SUPERSEDED_ERROR
            + ", "
            + literal(
                t.qualifiedName()
                    + ": a load of this Table committed after the restore started; nothing was"
                    + " restored. Run it again.")
            + ", 1;");
  }

  /**
   * Keyed: each key a later load touched gets back its state right after the load restored to,
   * which the first of those loads saved: a key it inserted is removed; a key it updated, revived
   * or deleted gets that row image back — in place when the row is still there, inserted again when
   * a later load removed it ({@code Deletes: hard}), with a new Identity value, as a Warehouse
   * cannot insert explicit ones.
   */
  private void undoKeyed(String undo) {
    String target = t.target();
    comment("Keys first inserted after the load: removed.");
    String u = t.aliasBeside("u");
    line("DELETE FROM " + target + " WHERE EXISTS (");
    line("    SELECT 1 FROM " + firstEntries(undo, u));
    line(
        "    WHERE "
            + u
            + "."
            + FIRST
            + " = 1 AND "
            + u
            + "."
            + UndoTable.KIND
            + " = "
            + literal(UndoTable.INSERTED)
            + " AND "
            + keysMatch(u, t.exposedName())
            + ");");
    line("SET @weaver_removed = @@ROWCOUNT;");
    comment("Keys first changed after the load, row still there: the image that load saved.");
    List<String> sets = new ArrayList<>();
    for (String column : UndoTable.imageColumns(t)) {
      if (t.primaryKey().stream().noneMatch(k -> quote(k).equals(column))) {
        sets.add(column + " = u." + column);
      }
    }
    line("UPDATE t SET");
    line("    " + String.join(",\n" + pad() + "    ", sets));
    line("FROM " + target + " AS t");
    line("INNER JOIN " + firstEntries(undo, "u"));
    line(
        "    ON "
            + keysMatch("u", "t")
            + " AND u."
            + FIRST
            + " = 1 AND u."
            + UndoTable.KIND
            + " = "
            + literal(UndoTable.IMAGE)
            + ";");
    line("SET @weaver_put_back = @@ROWCOUNT;");
    comment("Keys first changed after the load whose row a later load removed: inserted again.");
    String columns = String.join(", ", UndoTable.imageColumns(t));
    line("INSERT INTO " + target + " (" + columns + ")");
    line(
        "SELECT "
            + UndoTable.imageColumns(t).stream()
                .map(c -> "u." + c)
                .collect(Collectors.joining(", "))
            + " FROM "
            + firstEntries(undo, "u"));
    line(
        "WHERE u."
            + FIRST
            + " = 1 AND u."
            + UndoTable.KIND
            + " = "
            + literal(UndoTable.IMAGE)
            + " AND NOT EXISTS (SELECT 1 FROM "
            + target
            + " AS t WHERE "
            + keysMatch("u", "t")
            + ");");
    line("SET @weaver_put_back = @weaver_put_back + @@ROWCOUNT;");
  }

  /**
   * The row history of the loads after the one restored to, aliased {@code alias}, each entry
   * numbered per key in load order: {@code __weaver_first = 1} is what the first of them saved.
   */
  private String firstEntries(String undo, String alias) {
    return "(SELECT i.*, ROW_NUMBER() OVER (PARTITION BY "
        + t.primaryKey().stream().map(k -> "i." + quote(k)).collect(Collectors.joining(", "))
        + " ORDER BY i."
        + UndoTable.SEQUENCE
        + ") AS "
        + FIRST
        + " FROM "
        + undo
        + " AS i WHERE i."
        + UndoTable.KIND
        + " IN ("
        + literal(UndoTable.INSERTED)
        + ", "
        + literal(UndoTable.IMAGE)
        + ") AND i."
        + UndoTable.SEQUENCE
        + " > @weaver_to) AS "
        + alias;
  }

  private String keysMatch(String left, String right) {
    return t.primaryKey().stream()
        .map(k -> left + "." + quote(k) + " = " + right + "." + quote(k))
        .collect(Collectors.joining(" AND "));
  }

  /**
   * Unkeyed: every load replaces the whole table, so the rows right after the load restored to are
   * the ones the first later load replaced. They come back with new identity values (a Warehouse
   * cannot insert explicit ones).
   */
  private void undoReplacement(String undo) {
    String columns = String.join(", ", UndoTable.imageColumns(t));
    comment("The rows the first later load replaced, back in place of the current ones.");
    line("IF @weaver_undone > 0");
    begin();
    line("DELETE FROM " + t.target() + ";");
    line("SET @weaver_removed = @@ROWCOUNT;");
    line("INSERT INTO " + t.target() + " (" + columns + ")");
    line("SELECT " + columns + " FROM " + undo);
    line(
        "WHERE "
            + UndoTable.KIND
            + " = "
            + literal(UndoTable.REPLACED)
            + " AND "
            + UndoTable.SEQUENCE
            + " = (SELECT MIN("
            + UndoTable.SEQUENCE
            + ") FROM "
            + undo
            + laterMarks()
            + ");");
    line("SET @weaver_put_back = @@ROWCOUNT;");
    end();
  }

  /**
   * The history table ({@code History: true}) back to the same load: the versions the undone loads
   * wrote go, and each key's newest remaining version is current again (the undone loads had closed
   * it).
   */
  private void historyBack(String undo) {
    String h = WarehouseHistoryTable.name(t);
    comment(
        "The history table: the undone loads' versions go; each key's newest is current again.");
    line(
        "DELETE FROM "
            + h
            + " WHERE "
            + WarehouseHistoryTable.LOAD_ID
            + " IN (SELECT "
            + UndoTable.LOAD_ID
            + " FROM "
            + undo
            + laterMarks()
            + ");");
    String n = "n";
    line(
        "UPDATE v SET "
            + WarehouseHistoryTable.VALID_TO
            + " = "
            + WarehouseNames.LIVE_SENTINEL
            + ", "
            + WarehouseHistoryTable.IS_CURRENT
            + " = 1");
    line("FROM " + h + " AS v");
    line("WHERE v." + WarehouseHistoryTable.IS_CURRENT + " = 0 AND NOT EXISTS (");
    line(
        "    SELECT 1 FROM "
            + h
            + " AS "
            + n
            + " WHERE "
            + t.primaryKey().stream()
                .map(k -> n + "." + quote(k) + " = v." + quote(k))
                .collect(Collectors.joining(" AND "))
            + " AND "
            + n
            + "."
            + WarehouseHistoryTable.VALID_FROM
            + " > v."
            + WarehouseHistoryTable.VALID_FROM
            + ");");
  }

  /** {@code WHERE} the marks of the loads after the one restored to. */
  private static String laterMarks() {
    return " WHERE "
        + UndoTable.KIND
        + " = "
        + literal(UndoTable.MARK)
        + " AND "
        + UndoTable.SEQUENCE
        + " > @weaver_to";
  }

  private void answer(String again) {
    line(
        "SELECT [load_id], [status], [message], CAST("
            + again
            + " AS bit) AS [already_applied] FROM "
            + history()
            + " WHERE [load_id] = @restore_id AND [table_id] = @weaver_table_id;");
  }

  private static String history() {
    return CatalogueDdl.name(CatalogueTable.LOAD_HISTORY);
  }

  private static String state() {
    return CatalogueDdl.name(CatalogueTable.LOAD_STATE);
  }
}
