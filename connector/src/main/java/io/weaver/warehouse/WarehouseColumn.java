package io.weaver.warehouse;

/**
 * One business column of a Warehouse Table as built: its exact-case name, its T-SQL type text (as
 * declared in {@code Schema}, or as the endpoint described the staging query) and whether it
 * accepts nulls (every column but the primary-key and {@code Not null} ones).
 */
public record WarehouseColumn(String name, String type, boolean nullable) {
  public WarehouseColumn {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a Warehouse column needs a name");
    }
    if (type == null || type.isBlank()) {
      throw new IllegalArgumentException("column " + name + " needs a T-SQL type");
    }
    type = type.strip();
  }
}
