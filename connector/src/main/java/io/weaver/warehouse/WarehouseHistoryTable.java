package io.weaver.warehouse;

import static io.weaver.warehouse.TsqlNames.quote;

import io.weaver.install.HistoryTable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The history table of a Warehouse Table with {@code History: true}, {@code
 * [Schema].[Object__History]} (docs/warehouse.md, "History"): the same columns and meaning as a
 * Lakehouse history table (build.{@link HistoryTable}) — the Identity (when declared) and the
 * business columns, all nullable, then {@code valid_from}, {@code valid_to} (the live sentinel
 * while the version is open), {@code is_current}, {@code is_deleted} and the {@code load_id} that
 * wrote the version. The load procedure writes its versions in the load's own transaction, so the
 * Table and its history commit together; the restore procedure takes it back with the Table.
 */
final class WarehouseHistoryTable {
  static final String VALID_FROM = quote(HistoryTable.VALID_FROM);
  static final String VALID_TO = quote(HistoryTable.VALID_TO);
  static final String IS_CURRENT = quote(HistoryTable.IS_CURRENT);
  static final String IS_DELETED = quote(HistoryTable.IS_DELETED);
  static final String LOAD_ID = quote(HistoryTable.LOAD_ID);

  private WarehouseHistoryTable() {}

  /** {@code [Schema].[Object__History]}. */
  static String name(WarehouseTable t) {
    return TsqlNames.qualified(
        t.declaration().tableId().history().schema(), t.declaration().tableId().history().object());
  }

  /** The versioned columns, quoted, in table order: the Identity, then the business columns. */
  static List<String> versioned(WarehouseTable t) {
    List<String> columns = new ArrayList<>();
    t.identity().ifPresent(i -> columns.add(quote(i)));
    t.columns().forEach(c -> columns.add(quote(c.name())));
    return columns;
  }

  /** Every column a version is inserted with, quoted, in table order. */
  static String insertColumns(WarehouseTable t) {
    List<String> columns = new ArrayList<>(versioned(t));
    columns.addAll(List.of(VALID_FROM, VALID_TO, IS_CURRENT, IS_DELETED, LOAD_ID));
    return String.join(", ", columns);
  }

  /**
   * Creates the table when it is missing and, in the same batch, starts it from the Table's rows:
   * one current version per row (deleted for a soft-deleted row), from when the row last changed,
   * with no load id (History declared on a loaded Table starts from the rows it holds, as a
   * Lakehouse Table's does).
   */
  static Batch create(WarehouseTable t) {
    List<String> columns = new ArrayList<>();
    t.identity().ifPresent(i -> columns.add(quote(i) + " bigint NULL"));
    for (WarehouseColumn c : t.columns()) {
      columns.add(quote(c.name()) + " " + c.type() + " NULL");
    }
    String time = " " + WarehouseNames.AUDIT_TYPE + " NOT NULL";
    columns.add(VALID_FROM + time);
    columns.add(VALID_TO + time);
    columns.add(IS_CURRENT + " bit NOT NULL");
    columns.add(IS_DELETED + " bit NOT NULL");
    columns.add(LOAD_ID + " varchar(64) NULL");
    String live = WarehouseNames.DELETE_TIME + " = " + WarehouseNames.LIVE_SENTINEL;
    return new Batch(
        "history-table",
        "IF OBJECT_ID("
            + TsqlNames.literal(name(t))
            + ", N'U') IS NULL\nBEGIN\n    CREATE TABLE "
            + name(t)
            + " (\n        "
            + String.join(",\n        ", columns)
            + "\n    );\n    INSERT INTO "
            + name(t)
            + " ("
            + insertColumns(t)
            + ")\n    SELECT "
            + versioned(t).stream().map(c -> "t." + c).collect(Collectors.joining(", "))
            + ",\n        CASE WHEN t."
            + live
            + " THEN t."
            + WarehouseNames.UPDATE_TIME
            + " ELSE t."
            + WarehouseNames.DELETE_TIME
            + " END, "
            + WarehouseNames.LIVE_SENTINEL
            + ", 1, CASE WHEN t."
            + live
            + " THEN 0 ELSE 1 END, NULL\n    FROM "
            + t.target()
            + " AS t;\nEND;");
  }
}
