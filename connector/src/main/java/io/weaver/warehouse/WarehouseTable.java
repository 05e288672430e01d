package io.weaver.warehouse;

import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.SchemaColumn;
import io.weaver.metadata.TableDeclaration;
import io.weaver.workspace.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The load plan of one Warehouse Table: the declaration with its built business shape. The DDL, the
 * load procedure and the catalogue rows are all generated from this one object, so they cannot
 * disagree about columns, keys or thresholds.
 */
public record WarehouseTable(TableDeclaration declaration, List<WarehouseColumn> columns) {

  public WarehouseTable {
    if (declaration.target() != Target.WAREHOUSE) {
      throw new IllegalArgumentException(declaration.qualifiedName() + " is not a Warehouse Table");
    }
    columns = List.copyOf(columns);
    if (columns.isEmpty()) {
      throw new IllegalArgumentException(declaration.qualifiedName() + " has no business columns");
    }
  }

  /**
   * The plan from the declared {@code Schema}; empty when the shape must come from the endpoint.
   */
  public static Optional<WarehouseTable> declared(TableDeclaration t) {
    return t.schema().map(schema -> new WarehouseTable(t, shape(t, schema)));
  }

  /** Business columns from name/type pairs, nullable unless primary-key or {@code Not null}. */
  public static List<WarehouseColumn> shape(TableDeclaration t, List<SchemaColumn> schema) {
    List<String> required = t.requiredColumns();
    List<WarehouseColumn> columns = new ArrayList<>();
    for (SchemaColumn c : schema) {
      columns.add(new WarehouseColumn(c.name(), c.type(), !required.contains(c.name())));
    }
    return columns;
  }

  /** {@code Schema.Object}, the catalogue's {@code table_id}. */
  public String tableId() {
    return declaration.tableId().toString();
  }

  /** {@code Item.Schema.Object}, as every message names the Table. */
  public String qualifiedName() {
    return declaration.qualifiedName();
  }

  /** The table, {@code [Schema].[Object]}. */
  public String target() {
    return TsqlNames.qualified(declaration.tableId().schema(), declaration.tableId().object());
  }

  /**
   * The table as a subquery of a {@code DELETE} on it names its rows, {@code [Object]}: {@code
   * [Schema].[Object].[k]}, a three-part column name, is deprecated, and the Warehouse's {@code
   * DELETE} takes no alias of its target.
   */
  public String exposedName() {
    return TsqlNames.quote(declaration.tableId().object());
  }

  /**
   * An alias for another table in a subquery that reads this one's rows by {@link #exposedName}:
   * {@code wanted}, unless this table's object name is that word (the alias would hide it).
   */
  public String aliasBeside(String wanted) {
    return declaration.tableId().object().equalsIgnoreCase(wanted) ? wanted + "_other" : wanted;
  }

  /** The generated load procedure, {@code [_].[Load Schema.Object]}. */
  public String procedure() {
    return procedureOf(declaration);
  }

  /** {@code [_].[Load Schema.Object]} of a Table. */
  public static String procedureOf(TableDeclaration t) {
    return TsqlNames.qualified("_", "Load " + t.tableId());
  }

  public boolean keyed() {
    return declaration.keyed();
  }

  /** Whether the table carries {@code [Row signature]}: a keyed Table with a load. */
  public boolean signed() {
    return keyed() && declaration.hasLoadProcedure();
  }

  public List<String> primaryKey() {
    return declaration.primaryKey().map(ColumnSet::columns).orElse(List.of());
  }

  public List<List<String>> uniqueKeys() {
    return declaration.uniqueKeys().stream().map(ColumnSet::columns).toList();
  }

  /** Primary-key and {@code Not null} columns, primary key first. */
  public List<String> requiredColumns() {
    return declaration.requiredColumns();
  }

  /** The declared comparison columns, else every non-key business column in built order. */
  public List<WarehouseColumn> comparisonColumns() {
    Optional<ColumnSet> declared = declaration.comparisonColumns();
    if (declared.isPresent()) {
      return declared.get().columns().stream().map(this::column).toList();
    }
    return columns.stream().filter(c -> !primaryKey().contains(c.name())).toList();
  }

  public Optional<String> identity() {
    return declaration.identity();
  }

  public boolean incremental() {
    return declaration.incremental();
  }

  public WarehouseColumn column(String name) {
    return columns.stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    qualifiedName() + ": no business column named '" + name + "'"));
  }

  /** The business columns named, in the order given. */
  public List<WarehouseColumn> columns(List<String> names) {
    return names.stream().map(this::column).toList();
  }
}
