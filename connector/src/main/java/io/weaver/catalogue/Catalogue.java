package io.weaver.catalogue;

import io.delta.tables.DeltaTable;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.session.WeaverConf;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;

/**
 * One item's catalogue (schema {@code _}): creates its tables when missing and reads and writes
 * their rows. Catalogue rows are metadata (a few per Table or load), so they are built on the
 * driver; table data never is.
 */
public final class Catalogue {
  private final SparkSession spark;
  private final LakehouseLayout layout;
  private final String item;

  public Catalogue(SparkSession spark, LakehouseLayout layout, String item) {
    this.spark = spark;
    this.layout = layout;
    this.item = item;
  }

  public String item() {
    return item;
  }

  public String path(CatalogueTable table) {
    return layout.cataloguePath(item, table.tableName());
  }

  public boolean exists(CatalogueTable table) {
    return DeltaTable.isDeltaTable(spark, path(table));
  }

  /** Creates the catalogue tables that do not exist yet (one commit each, first Build only). */
  public void ensureTables() {
    for (CatalogueTable table : CatalogueTable.values()) {
      if (!exists(table)) {
        var builder =
            DeltaTable.createIfNotExists(spark)
                .location(path(table))
                .comment("Weaver catalogue: " + table.tableName())
                .property(WeaverConf.CATALOGUE_PROPERTY, "true")
                .property(WeaverConf.ITEM_PROPERTY, item);
        for (StructField field : table.schema().fields()) {
          builder =
              builder.addColumn(
                  DeltaTable.columnBuilder(spark, field.name())
                      .dataType(field.dataType())
                      .nullable(field.nullable())
                      .build());
        }
        builder.execute();
      }
    }
  }

  /** The rows of a catalogue table (empty when it does not exist yet). */
  public Dataset<Row> read(CatalogueTable table) {
    if (!exists(table)) {
      return spark.createDataFrame(List.of(), table.schema());
    }
    return spark.read().format("delta").load(path(table));
  }

  /** The rows of a catalogue table as of one Delta version of it. */
  public Dataset<Row> readAt(CatalogueTable table, long version) {
    return spark.read().format("delta").option("versionAsOf", version).load(path(table));
  }

  public SparkSession spark() {
    return spark;
  }

  /** Rows of a catalogue table for one Table ID. */
  public Dataset<Row> readFor(CatalogueTable table, String idColumn, String tableId) {
    return read(table).where(functions.col(idColumn).equalTo(tableId));
  }

  /** Appends rows (one commit). */
  public void append(CatalogueTable table, List<Row> rows) {
    if (rows.isEmpty()) {
      return;
    }
    spark
        .createDataFrame(rows, table.schema())
        .write()
        .format("delta")
        .mode("append")
        .save(path(table));
  }

  /**
   * Replaces every row whose {@code idColumn} is one of {@code ids} by {@code rows}, in one commit
   * (rows for other Tables are untouched).
   */
  public void replaceFor(CatalogueTable table, String idColumn, List<String> ids, List<Row> rows) {
    if (ids.isEmpty()) {
      return;
    }
    String predicate =
        "`"
            + idColumn
            + "` IN ("
            + String.join(", ", ids.stream().map(Catalogue::literal).toList())
            + ")";
    spark
        .createDataFrame(rows, table.schema())
        .write()
        .format("delta")
        .mode("overwrite")
        .option("replaceWhere", predicate)
        .save(path(table));
  }

  /**
   * Replaces every row of {@code tableId} whose {@code load_id} is one of {@code loadIds} by {@code
   * rows}, in one commit.
   */
  public void replaceLoads(
      CatalogueTable table, String tableId, List<String> loadIds, Dataset<Row> rows) {
    String predicate =
        "`table_id` = "
            + literal(tableId)
            + " AND `load_id` IN ("
            + String.join(", ", loadIds.stream().map(Catalogue::literal).toList())
            + ")";
    rows.write()
        .format("delta")
        .mode("overwrite")
        .option("replaceWhere", predicate)
        .save(path(table));
  }

  /** Replaces the rows of {@code tableId} under {@code loadId} by {@code rows}, in one commit. */
  public void replaceLoadRows(CatalogueTable table, String tableId, String loadId, List<Row> rows) {
    replaceLoads(table, tableId, List.of(loadId), spark.createDataFrame(rows, table.schema()));
  }

  /** Deletes every row of {@code tableId} whose {@code load_id} is one of {@code loadIds}. */
  public void deleteLoads(CatalogueTable table, String tableId, List<String> loadIds) {
    DeltaTable.forPath(spark, path(table))
        .delete(
            functions
                .col("table_id")
                .equalTo(tableId)
                .and(functions.col("load_id").isin(loadIds.toArray())));
  }

  /** A SQL string literal with quotes and backslashes escaped. */
  static String literal(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
