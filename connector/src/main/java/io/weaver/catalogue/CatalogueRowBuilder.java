package io.weaver.catalogue;

import java.util.HashSet;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.StructType;

/**
 * A row of a catalogue table built by column name: each value goes to its column's place in the
 * table's schema, so a writer never depends on column order. An unknown name, a name set twice or a
 * required column left unset fails at once, on the driver, before anything is written.
 */
public final class CatalogueRowBuilder {
  private final CatalogueTable table;
  private final StructType schema;
  private final Object[] values;
  private final Set<String> set = new HashSet<>();

  CatalogueRowBuilder(CatalogueTable table) {
    this.table = table;
    this.schema = table.schema();
    this.values = new Object[schema.size()];
  }

  /** Sets column {@code name} to {@code value} (null for SQL NULL). */
  public CatalogueRowBuilder set(String name, Object value) {
    if (!set.add(name)) {
      throw new IllegalArgumentException(table.tableName() + "." + name + " is set twice");
    }
    values[index(name)] = value;
    return this;
  }

  /** The row, in the table's column order, carrying its schema (so it reads by name too). */
  public Row build() {
    for (CatalogueField field : table.fields()) {
      if (!field.nullable() && values[index(field.name())] == null) {
        throw new IllegalStateException(
            table.tableName() + "." + field.name() + " is required but was not set");
      }
    }
    return new GenericRowWithSchema(values.clone(), schema);
  }

  private int index(String name) {
    if (!schema.getFieldIndex(name).isDefined()) {
      throw new IllegalArgumentException(table.tableName() + " has no column " + name);
    }
    return schema.fieldIndex(name);
  }
}
