package io.weaver.catalogue;

import java.util.HashSet;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A row built by column name: each value goes to its column's place in the schema, so a writer
 * never depends on column order. An unknown name, a name set twice or a required (non-nullable)
 * column left unset fails at once, on the driver, before anything is written. Rows of a catalogue
 * table come from {@link CatalogueTable#row()}; the result rows of a statement from {@link
 * #of(String, StructType)}.
 */
public final class CatalogueRowBuilder {
  private final String label;
  private final StructType schema;
  private final Object[] values;
  private final boolean checksRequired;
  private final Set<String> set = new HashSet<>();

  CatalogueRowBuilder(CatalogueTable table) {
    this(table.tableName(), table.schema(), true);
  }

  private CatalogueRowBuilder(String label, StructType schema, boolean checksRequired) {
    this.label = label;
    this.schema = schema;
    this.values = new Object[schema.size()];
    this.checksRequired = checksRequired;
  }

  /**
   * A row of {@code schema} (a statement's result rows), set by name; {@code label} names it in
   * errors. Names are checked; a required column left null is not (a statement's rows are shown,
   * not written, as they were before they were built by name).
   */
  public static CatalogueRowBuilder of(String label, StructType schema) {
    return new CatalogueRowBuilder(label, schema, false);
  }

  /** Sets column {@code name} to {@code value} (null for SQL NULL). */
  public CatalogueRowBuilder set(String name, Object value) {
    if (!set.add(name)) {
      throw new IllegalArgumentException(label + "." + name + " is set twice");
    }
    values[index(name)] = value;
    return this;
  }

  /** The row, in the schema's column order, carrying its schema (so it reads by name too). */
  public Row build() {
    for (StructField field : schema.fields()) {
      if (checksRequired && !field.nullable() && values[index(field.name())] == null) {
        throw new IllegalStateException(
            label + "." + field.name() + " is required but was not set");
      }
    }
    return new GenericRowWithSchema(values.clone(), schema);
  }

  private int index(String name) {
    if (!schema.getFieldIndex(name).isDefined()) {
      throw new IllegalArgumentException(label + " has no column " + name);
    }
    return schema.fieldIndex(name);
  }
}
