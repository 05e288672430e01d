package io.weaver.warehouse;

import java.util.ArrayList;
import java.util.List;

/**
 * The DDL of a Warehouse Table: its schema, the table with business and managed columns, and the
 * key constraints. Every batch is idempotent (it checks the catalog views first), so running the
 * script twice changes nothing.
 *
 * <p>Fabric Warehouse facts this follows: {@code CREATE SCHEMA} must be alone in its batch, so it
 * runs through {@code EXEC}; {@code IDENTITY} is {@code bigint} without seed or increment; primary
 * and unique keys exist only as {@code NONCLUSTERED … NOT ENFORCED} constraints added by {@code
 * ALTER TABLE}, so they document the keys for tools and the load procedure enforces them.
 */
public final class WarehouseDdl {
  private WarehouseDdl() {}

  /** The schema, the table and its key constraints, in the order they must run. */
  public static List<Batch> table(WarehouseTable t) {
    List<Batch> batches = new ArrayList<>();
    batches.add(new Batch("schema", schema(t.declaration().tableId().schema())));
    batches.add(new Batch("table", createTable(t)));
    if (t.keyed()) {
      batches.add(
          new Batch(
              "primary-key",
              constraint(t, "PK " + t.tableId(), "PRIMARY KEY NONCLUSTERED", t.primaryKey())));
    }
    for (int i = 0; i < t.uniqueKeys().size(); i++) {
      batches.add(
          new Batch(
              "unique-key-" + (i + 1),
              constraint(
                  t,
                  "UQ " + t.tableId() + " " + (i + 1),
                  "UNIQUE NONCLUSTERED",
                  t.uniqueKeys().get(i))));
    }
    return batches;
  }

  /** {@code CREATE SCHEMA} when the schema is missing. */
  public static String schema(String schema) {
    return "IF SCHEMA_ID("
        + TsqlNames.literal(schema)
        + ") IS NULL\n    EXEC("
        + TsqlNames.literal("CREATE SCHEMA " + TsqlNames.quote(schema))
        + ");";
  }

  static String createTable(WarehouseTable t) {
    List<String> columns = new ArrayList<>();
    t.identity().ifPresent(id -> columns.add(TsqlNames.quote(id) + " bigint IDENTITY NOT NULL"));
    for (WarehouseColumn c : t.columns()) {
      columns.add(
          TsqlNames.quote(c.name()) + " " + c.type() + (c.nullable() ? " NULL" : " NOT NULL"));
    }
    columns.add(WarehouseNames.INSERT_TIME + " " + WarehouseNames.AUDIT_TYPE + " NOT NULL");
    columns.add(WarehouseNames.UPDATE_TIME + " " + WarehouseNames.AUDIT_TYPE + " NOT NULL");
    columns.add(WarehouseNames.DELETE_TIME + " " + WarehouseNames.AUDIT_TYPE + " NOT NULL");
    if (t.signed()) {
      columns.add(WarehouseNames.SIGNATURE + " varbinary(32) NOT NULL");
    }
    return "IF OBJECT_ID("
        + TsqlNames.literal(t.target())
        + ", N'U') IS NULL\n    CREATE TABLE "
        + t.target()
        + " (\n        "
        + String.join(",\n        ", columns)
        + "\n    );";
  }

  private static String constraint(
      WarehouseTable t, String name, String kind, List<String> columns) {
    return "IF NOT EXISTS (\n    SELECT 1 FROM sys.key_constraints\n    WHERE [name] = "
        + TsqlNames.literal(name)
        + " AND [parent_object_id] = OBJECT_ID("
        + TsqlNames.literal(t.target())
        + ")\n)\n    ALTER TABLE "
        + t.target()
        + " ADD CONSTRAINT "
        + TsqlNames.quote(name)
        + " "
        + kind
        + " ("
        + String.join(", ", columns.stream().map(TsqlNames::quote).toList())
        + ") NOT ENFORCED;";
  }
}
