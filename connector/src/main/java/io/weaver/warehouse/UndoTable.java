package io.weaver.warehouse;

import java.util.ArrayList;
import java.util.List;

/**
 * The row history a Warehouse Table keeps for {@code RESTORE WEAVER TABLE}, {@code [_].[Undo
 * Schema.Object]}: a Warehouse table is updated in place and has no time travel, so each load's
 * transaction records, beside its writes, what it takes back to undo them.
 *
 * <p>Rows, each tagged with the load's sequence and id:
 *
 * <ul>
 *   <li>{@link #MARK} — one per applied load: the loads a restore can go back to;
 *   <li>{@link #IMAGE} — a keyed row as it was before the load updated, revived or deleted it
 *       (every business and managed column; under {@code Deletes: hard} the whole removed row,
 *       which a restore inserts again);
 *   <li>{@link #INSERTED} — the primary key of a row the load inserted;
 *   <li>{@link #REPLACED} — a row of an unkeyed Table as it was before the load replaced the table.
 * </ul>
 *
 * A restore to load {@code L} undoes the loads after it and then deletes their rows here, so a load
 * restored over cannot be restored to (its rows are gone) and the table holds one history line. It
 * grows with every changed row; nothing trims it yet (docs/warehouse.md, "Restore").
 */
final class UndoTable {
  static final String MARK = "L";
  static final String IMAGE = "U";
  static final String INSERTED = "I";
  static final String REPLACED = "X";

  static final String SEQUENCE = TsqlNames.quote("load_sequence");
  static final String LOAD_ID = TsqlNames.quote("load_id");
  static final String KIND = TsqlNames.quote("undo_kind");

  private UndoTable() {}

  /** {@code [_].[Undo Schema.Object]}. */
  static String name(WarehouseTable t) {
    return TsqlNames.qualified(CatalogueDdl.SCHEMA, "Undo " + t.tableId());
  }

  /** The table, created when missing: every target column nullable (a mark has none). */
  static Batch create(WarehouseTable t) {
    List<String> columns = new ArrayList<>();
    columns.add(SEQUENCE + " bigint NOT NULL");
    columns.add(LOAD_ID + " varchar(64) NOT NULL");
    columns.add(KIND + " char(1) NOT NULL");
    for (WarehouseColumn c : t.columns()) {
      columns.add(TsqlNames.quote(c.name()) + " " + c.type() + " NULL");
    }
    for (String managed : managed(t)) {
      columns.add(
          managed
              + (managed.equals(WarehouseNames.SIGNATURE)
                  ? " varbinary(32) NULL"
                  : " " + WarehouseNames.AUDIT_TYPE + " NULL"));
    }
    return new Batch(
        "undo-table",
        "IF OBJECT_ID("
            + TsqlNames.literal(name(t))
            + ", N'U') IS NULL\n    CREATE TABLE "
            + name(t)
            + " (\n        "
            + String.join(",\n        ", columns)
            + "\n    );");
  }

  /** The managed columns an image keeps, quoted, in table order. */
  static List<String> managed(WarehouseTable t) {
    List<String> columns = new ArrayList<>();
    columns.add(WarehouseNames.INSERT_TIME);
    columns.add(WarehouseNames.UPDATE_TIME);
    columns.add(WarehouseNames.DELETE_TIME);
    if (t.signed()) {
      columns.add(WarehouseNames.SIGNATURE);
    }
    return columns;
  }

  /** Every business and managed column an image holds, quoted, in table order. */
  static List<String> imageColumns(WarehouseTable t) {
    List<String> columns = new ArrayList<>();
    t.columns().forEach(c -> columns.add(TsqlNames.quote(c.name())));
    columns.addAll(managed(t));
    return columns;
  }
}
