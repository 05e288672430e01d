package io.weaver.install;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Table's business shape: its columns in built order. Declared ({@code Schema}) or inferred from
 * the staging query.
 */
public record TableShape(List<BuiltColumn> columns, boolean inferred) {

  public TableShape {
    columns = List.copyOf(columns);
  }

  public List<String> names() {
    return columns.stream().map(BuiltColumn::name).toList();
  }

  /** The columns as the catalogue and the declaration signature describe them. */
  public List<CatalogueColumn> catalogueColumns() {
    return columns.stream()
        .map(c -> new CatalogueColumn(c.name(), c.typeText(), c.nullable()))
        .toList();
  }

  public Optional<BuiltColumn> column(String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** The business columns as a Spark schema (nullability as built). */
  public StructType schema() {
    return new StructType(
        columns.stream()
            .map(
                c ->
                    new StructField(
                        c.name(),
                        c.type(),
                        c.nullable(),
                        org.apache.spark.sql.types.Metadata.empty()))
            .toArray(StructField[]::new));
  }
}
