package io.weaver.catalogue;

import io.delta.tables.DeltaTable;
import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.session.WeaverConf;
import io.weaver.workspace.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * One item's catalogue (schema {@code _}): creates its tables when missing and reads and writes
 * their rows. Catalogue rows are metadata (a few per Table or load), so they are built on the
 * driver; table data never is.
 *
 * <p>The tables evolve only by optional columns appended at their end ({@link CatalogueTable},
 * "Evolution"): {@link #ensureTables} adds the ones an existing table lacks, and {@link #read}
 * gives null for a column a table does not have yet.
 */
public final class Catalogue {
  /**
   * One lock per catalogue table (by path): this JVM's commits that replace or delete rows, or
   * create a table, go one at a time. Tables that load side by side write their state and counts
   * into the same catalogue tables; two such commits at once would fail Delta's check of concurrent
   * transactions (each removes files the other read). Appends do not conflict and are not locked.
   */
  private static final ConcurrentHashMap<String, Object> WRITERS = new ConcurrentHashMap<>();

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

  /** Attempts at adding an existing table's missing columns before giving up. */
  private static final int EVOLVE_ATTEMPTS = 3;

  /**
   * Creates the catalogue tables that do not exist yet (one commit each, first Build only) and adds
   * to each existing one the columns {@link CatalogueTable} appended since it was created (one
   * commit per table, only when some are missing: otherwise this reads the tables' schemas from
   * their Delta logs and runs no Spark job). Columns an existing table has that {@link
   * CatalogueTable} does not know (a newer Weaver appended them) are left alone.
   */
  public void ensureTables() {
    for (CatalogueTable table : CatalogueTable.values()) {
      if (table.createdByBuild()) {
        ensureTable(table);
      }
    }
  }

  /** Creates {@code table} when missing, else adds the columns it lacks ({@link #ensureTables}). */
  public void ensureTable(CatalogueTable table) {
    // One read of each table's log answers both questions: does it exist, what columns has it.
    Optional<StructType> seen = DeltaLogs.schema(spark, path(table));
    if (seen.isPresent() && missing(table, seen.get()).isEmpty()) {
      // The usual case, at every load's start: no lock, so a load never waits here for another's
      // long replacing commit (a quarantine's rows).
      return;
    }
    synchronized (writerOf(table)) {
      // Read again under the lock: a load beside this one may have just created it.
      Optional<StructType> present = DeltaLogs.schema(spark, path(table));
      if (present.isEmpty()) {
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
      } else if (!missing(table, present.get()).isEmpty()) {
        addMissingColumns(table);
      }
    }
  }

  /**
   * Adds the columns of {@code table} its Delta table lacks, in one commit. Concurrent loads may
   * race to add the same column: when the ALTER fails, the schema is read again and the work is
   * done if nothing is missing any more (else retried, a few times).
   */
  private void addMissingColumns(CatalogueTable table) {
    for (int attempt = 1; ; attempt++) {
      List<CatalogueField> missing = missing(table, deltaSchema(table));
      if (missing.isEmpty()) {
        return;
      }
      try {
        addColumns(table, missing);
        return;
      } catch (Exception e) { // spark.sql throws AnalysisException, a checked exception
        if (attempt >= EVOLVE_ATTEMPTS) {
          if (missing(table, deltaSchema(table)).isEmpty()) {
            return;
          }
          throw new IllegalStateException(
              "could not add "
                  + missing.stream().map(CatalogueField::name).toList()
                  + " to the catalogue table "
                  + path(table)
                  + ": "
                  + e.getMessage(),
              e);
        }
      }
    }
  }

  /** The columns of {@code table} that {@code present} lacks; all must be optional. */
  static List<CatalogueField> missing(CatalogueTable table, StructType present) {
    Set<String> names = lowerCaseNames(present);
    List<CatalogueField> missing = new ArrayList<>();
    for (CatalogueField field : table.fields()) {
      if (!names.contains(field.name().toLowerCase(Locale.ROOT))) {
        if (!field.nullable()) {
          throw new IllegalStateException(
              "the catalogue table "
                  + table.tableName()
                  + " lacks its required column "
                  + field.name()
                  + ", which no Weaver ever added later: the table is damaged");
        }
        missing.add(field);
      }
    }
    return missing;
  }

  private void addColumns(CatalogueTable table, List<CatalogueField> missing) {
    List<String> columns =
        missing.stream().map(f -> Identifiers.quote(f.name()) + " " + f.type().sql()).toList();
    spark.sql(
        "ALTER TABLE delta."
            + Identifiers.quote(path(table))
            + " ADD COLUMNS ("
            + String.join(", ", columns)
            + ")");
  }

  /** The table's schema as its Delta log has it now (no Spark job where Delta's internals are). */
  private StructType deltaSchema(CatalogueTable table) {
    return DeltaLogs.schema(spark, path(table))
        .orElseThrow(() -> new IllegalStateException("no catalogue table at " + path(table)));
  }

  /**
   * The rows of a catalogue table (empty when it does not exist yet), in {@link CatalogueTable}'s
   * columns: null for a column the table does not have yet, none of the columns it has that this
   * Weaver does not know.
   */
  public Dataset<Row> read(CatalogueTable table) {
    if (!exists(table)) {
      return spark.createDataFrame(List.of(), table.schema());
    }
    return declared(table, spark.read().format("delta").load(path(table)));
  }

  /** The rows of a catalogue table as of one Delta version of it, as {@link #read} gives them. */
  public Dataset<Row> readAt(CatalogueTable table, long version) {
    return declared(
        table, spark.read().format("delta").option("versionAsOf", version).load(path(table)));
  }

  /** {@code rows} with exactly the columns of {@code table}, by name, in its order. */
  private static Dataset<Row> declared(CatalogueTable table, Dataset<Row> rows) {
    StructType present = rows.schema();
    List<String> declared = table.fields().stream().map(CatalogueField::name).toList();
    if (List.of(present.fieldNames()).equals(declared)) {
      return rows;
    }
    Set<String> names = lowerCaseNames(present);
    List<Column> columns = new ArrayList<>();
    for (CatalogueField field : table.fields()) {
      columns.add(
          names.contains(field.name().toLowerCase(Locale.ROOT))
              ? rows.col(Identifiers.quote(field.name()))
              : functions.lit(null).cast(field.type()).as(field.name()));
    }
    return rows.select(columns.toArray(Column[]::new));
  }

  private static Set<String> lowerCaseNames(StructType schema) {
    return java.util.Arrays.stream(schema.fieldNames())
        .map(n -> n.toLowerCase(Locale.ROOT))
        .collect(Collectors.toSet());
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
   * Appends rows in one commit that carries Delta's idempotent transaction ({@code appId}, {@code
   * version}: Delta skips the write when that version of the application already committed) and
   * {@code userMetadata}.
   */
  public void appendOnce(
      CatalogueTable table, List<Row> rows, String appId, long version, String userMetadata) {
    spark
        .createDataFrame(rows, table.schema())
        .write()
        .format("delta")
        .mode("append")
        .option("txnAppId", appId)
        .option("txnVersion", version)
        .option("userMetadata", userMetadata)
        .save(path(table));
  }

  /**
   * Replaces every row whose {@code idColumn} is one of {@code ids} by {@code rows}, in one commit
   * (rows for other Tables are untouched).
   */
  public void replaceFor(CatalogueTable table, String idColumn, List<String> ids, List<Row> rows) {
    synchronized (writerOf(table)) {
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
  }

  /**
   * Replaces every row of {@code tableId} whose {@code load_id} is one of {@code loadIds} by {@code
   * rows}, in one commit.
   */
  public void replaceLoads(
      CatalogueTable table, String tableId, List<String> loadIds, Dataset<Row> rows) {
    synchronized (writerOf(table)) {
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
  }

  /** Replaces the rows of {@code tableId} under {@code loadId} by {@code rows}, in one commit. */
  public void replaceLoadRows(CatalogueTable table, String tableId, String loadId, List<Row> rows) {
    replaceLoads(table, tableId, List.of(loadId), spark.createDataFrame(rows, table.schema()));
  }

  /** Deletes every row of {@code tableId} whose {@code load_id} is one of {@code loadIds}. */
  public void deleteLoads(CatalogueTable table, String tableId, List<String> loadIds) {
    synchronized (writerOf(table)) {
      DeltaTable.forPath(spark, path(table))
          .delete(
              functions
                  .col("table_id")
                  .equalTo(tableId)
                  .and(functions.col("load_id").isin(loadIds.toArray())));
    }
  }

  private Object writerOf(CatalogueTable table) {
    return WRITERS.computeIfAbsent(path(table), p -> new Object());
  }

  /** A SQL string literal with quotes and backslashes escaped. */
  static String literal(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
