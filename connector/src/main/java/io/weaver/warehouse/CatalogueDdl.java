package io.weaver.warehouse;

import io.weaver.catalogue.CatalogueField;
import io.weaver.catalogue.CatalogueTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampType;

/**
 * The catalogue tables of a Warehouse item, in its schema {@code _}: the same tables and column
 * names as a Lakehouse's ({@link CatalogueTable} is the one list of them), in T-SQL types. Lists
 * and maps ({@code tags}, {@code primary_key}, {@code creation_defaults}) are JSON text, since the
 * Warehouse has no array or map type; strings are {@code varchar} (Fabric's UTF-8 collation).
 * Columns that hold JSON ({@link #holdsJson}) are {@code varchar(max)}: a row of a wide Table as
 * JSON (a {@code varbinary(max)} value as base64) is longer than 8000 bytes; other strings are
 * {@code varchar(8000)}.
 *
 * <p>A catalogue table evolves only by optional columns appended at its end ({@link
 * CatalogueTable}, "Evolution"): its batch also adds each appended column to a table an earlier
 * Weaver created without it ({@code ALTER TABLE ... ADD}, guarded by {@code COL_LENGTH}).
 */
public final class CatalogueDdl {
  static final String SCHEMA = "_";

  private CatalogueDdl() {}

  /**
   * Schema {@code _} and every catalogue table, each created when missing and given the appended
   * columns it lacks.
   */
  public static List<Batch> all() {
    List<Batch> batches = new ArrayList<>();
    batches.add(new Batch("catalogue-schema", WarehouseDdl.schema(SCHEMA)));
    for (CatalogueTable table : CatalogueTable.values()) {
      if (!table.createdByBuild()) {
        continue; // a Warehouse's own transaction spans its Tables: nothing to publish
      }
      batches.add(new Batch("catalogue-" + table.tableName(), create(table)));
    }
    return batches;
  }

  /** {@code [_].[Name]}. */
  public static String name(CatalogueTable table) {
    return TsqlNames.qualified(SCHEMA, table.tableName());
  }

  private static String create(CatalogueTable table) {
    List<String> columns = new ArrayList<>();
    for (StructField f : table.schema().fields()) {
      columns.add(column(table, f));
    }
    StringBuilder sql =
        new StringBuilder(
            "IF OBJECT_ID("
                + TsqlNames.literal(name(table))
                + ", N'U') IS NULL\n    CREATE TABLE "
                + name(table)
                + " (\n        "
                + String.join(",\n        ", columns)
                + "\n    );");
    for (CatalogueField f : table.appendedFields()) {
      sql.append("\nIF COL_LENGTH(")
          .append(TsqlNames.literal(name(table)))
          .append(", ")
          .append(TsqlNames.literal(f.name()))
          .append(") IS NULL\n    ALTER TABLE ")
          .append(name(table))
          .append(" ADD ")
          .append(column(table, f.structField()))
          .append(";");
    }
    return sql.toString();
  }

  /** A column's definition: {@code [name] type NULL} or {@code NOT NULL}. */
  private static String column(CatalogueTable table, StructField f) {
    return TsqlNames.quote(f.name())
        + " "
        + (holdsJson(f) ? "varchar(max)" : type(table, f.dataType()))
        + (f.nullable() ? " NULL" : " NOT NULL");
  }

  /**
   * Whether a catalogue column holds JSON: a list or map, or a row's key or values ({@code
   * key_json}, {@code row_json}).
   */
  static boolean holdsJson(StructField f) {
    return f.dataType() instanceof ArrayType
        || f.dataType() instanceof MapType
        || f.name().endsWith("_json");
  }

  static String type(CatalogueTable table, DataType type) {
    if (type instanceof StringType || type instanceof ArrayType || type instanceof MapType) {
      return "varchar(8000)";
    }
    if (type instanceof BooleanType) {
      return "bit";
    }
    if (type instanceof IntegerType) {
      return "int";
    }
    if (type instanceof LongType) {
      return "bigint";
    }
    if (type instanceof TimestampType) {
      return "datetime2(6)";
    }
    throw new IllegalStateException(
        "catalogue table "
            + table.tableName()
            + " has a column of type "
            + type
            + " with no T-SQL type");
  }
}
