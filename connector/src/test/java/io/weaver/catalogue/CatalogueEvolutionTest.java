package io.weaver.catalogue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.session.WeaverConf;
import io.weaver.testing.WeaverFixture;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Catalogue evolution on real Delta tables: an item whose catalogue an earlier Weaver created gains
 * the columns appended since (rows kept, old rows null), reads of a not yet evolved table give the
 * new columns as null, and a table with a trailing column this Weaver does not know still takes
 * writes.
 */
class CatalogueEvolutionTest {
  @RegisterExtension final WeaverFixture weaver = WeaverFixture.item("Evolve");

  private final SparkSession spark = weaver.spark();
  private final Catalogue catalogue = new Catalogue(spark, weaver.layout(), weaver.item());

  /** LoadHistory as the Weaver before {@code rows_stale} created it. */
  private static final StructType OLD_HISTORY =
      new StructType(
          Arrays.copyOf(
              CatalogueTable.LOAD_HISTORY.schema().fields(),
              CatalogueTable.LOAD_HISTORY.schema().size() - 1));

  @Test
  void anOldLoadHistoryGainsRowsStaleKeepsItsRowsAndTakesAppends() throws Exception {
    assertEquals("rows_stale", CatalogueTable.LOAD_HISTORY.schema().fields()[17].name());
    create(CatalogueTable.LOAD_HISTORY, OLD_HISTORY);
    spark
        .createDataFrame(List.of(oldRow("L1")), OLD_HISTORY)
        .write()
        .format("delta")
        .mode("append")
        .save(path());
    long before = version();

    // A reader that never loads sees the new column as null before the evolution ran.
    List<Row> read = catalogue.read(CatalogueTable.LOAD_HISTORY).collectAsList();
    assertEquals(
        CatalogueTable.LOAD_HISTORY.schema(), catalogue.read(CatalogueTable.LOAD_HISTORY).schema());
    assertEquals(1, read.size());
    assertEquals(-1, NamedRow.of(read.get(0)).longOr("rows_stale", -1));
    assertNull(read.get(0).get(read.get(0).fieldIndex("rows_stale")));

    catalogue.ensureTables();

    assertEquals(before + 1, version(), "one commit adds the missing columns");
    assertEquals(
        List.of(CatalogueTable.LOAD_HISTORY.schema().fieldNames()),
        List.of(deltaSchema().fieldNames()));
    StructField added = deltaSchema().apply("rows_stale");
    assertEquals(DataTypes.LongType, added.dataType());
    assertTrue(added.nullable());

    catalogue.append(
        CatalogueTable.LOAD_HISTORY,
        List.of(
            CatalogueTable.LOAD_HISTORY
                .row()
                .set("load_id", "L2")
                .set("table_id", "Sales.Order")
                .set("status", "succeeded")
                .set("rows_stale", 3L)
                .build()));
    Map<String, Object> stale = new TreeMap<>();
    for (Row r : spark.read().format("delta").load(path()).collectAsList()) {
      stale.put(r.getString(r.fieldIndex("load_id")), r.get(r.fieldIndex("rows_stale")));
    }
    Map<String, Object> expected = new TreeMap<>();
    expected.put("L1", null);
    expected.put("L2", 3L);
    assertEquals(expected, stale);
    assertEquals("succeeded", rowOf("L1").getString(rowOf("L1").fieldIndex("status")));

    // Nothing missing any more: no commit, and no Spark job.
    assertTrue(jobsOf(() -> catalogue.read(CatalogueTable.LOAD_HISTORY).count()) > 0);
    long after = version();
    assertEquals(0, jobsOf(catalogue::ensureTables));
    assertEquals(after, version());
  }

  @Test
  void aVersionBeforeTheEvolutionReadsTheNewColumnAsNull() {
    create(CatalogueTable.LOAD_HISTORY, OLD_HISTORY);
    spark
        .createDataFrame(List.of(oldRow("L1")), OLD_HISTORY)
        .write()
        .format("delta")
        .mode("append")
        .save(path());
    long old = version();
    catalogue.ensureTables();
    Row row = catalogue.readAt(CatalogueTable.LOAD_HISTORY, old).first();
    assertArrayEquals(CatalogueTable.LOAD_HISTORY.schema().fieldNames(), row.schema().fieldNames());
    assertNull(row.get(row.fieldIndex("rows_stale")));
    assertEquals("L1", row.getString(row.fieldIndex("load_id")));
  }

  @Test
  void aTableWithAnUnknownTrailingColumnIsLeftAloneAndStillTakesWrites() {
    StructType newer =
        CatalogueTable.LOAD_HISTORY
            .schema()
            .add("rows_from_the_future", DataTypes.StringType, true);
    create(CatalogueTable.LOAD_HISTORY, newer);
    long before = version();

    catalogue.ensureTables();
    assertEquals(before, version(), "an unknown column is left alone");
    assertEquals(newer, deltaSchema());

    catalogue.append(CatalogueTable.LOAD_HISTORY, List.of(row("L1", "running")));
    catalogue.replaceLoadRows(
        CatalogueTable.LOAD_HISTORY, "Sales.Order", "L1", List.of(row("L1", "succeeded")));
    catalogue.append(CatalogueTable.LOAD_HISTORY, List.of(row("L2", "succeeded")));

    assertEquals(newer, deltaSchema(), "writes keep the newer Weaver's column");
    List<Row> rows = catalogue.read(CatalogueTable.LOAD_HISTORY).orderBy("load_id").collectAsList();
    assertEquals(CatalogueTable.LOAD_HISTORY.schema(), rows.get(0).schema());
    assertEquals(
        List.of("L1 succeeded", "L2 succeeded"),
        rows.stream().map(r -> r.getString(0) + " " + r.getString(2)).toList());
    assertNull(rowOf("L1").get(rowOf("L1").fieldIndex("rows_from_the_future")));
  }

  @Test
  void concurrentEnsureTablesAddTheColumnOnce() throws Exception {
    for (CatalogueTable table : CatalogueTable.values()) {
      if (table != CatalogueTable.LOAD_HISTORY) {
        create(table, table.schema());
      }
    }
    create(CatalogueTable.LOAD_HISTORY, OLD_HISTORY);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        runs.add(
            pool.submit(() -> new Catalogue(spark, weaver.layout(), weaver.item()).ensureTables()));
      }
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(
        List.of(CatalogueTable.LOAD_HISTORY.schema().fieldNames()),
        List.of(deltaSchema().fieldNames()));
  }

  private void create(CatalogueTable table, StructType schema) {
    var builder =
        DeltaTable.create(spark)
            .location(catalogue.path(table))
            .property(WeaverConf.CATALOGUE_PROPERTY, "true")
            .property(WeaverConf.ITEM_PROPERTY, weaver.item());
    for (StructField field : schema.fields()) {
      builder =
          builder.addColumn(
              DeltaTable.columnBuilder(spark, field.name())
                  .dataType(field.dataType())
                  .nullable(field.nullable())
                  .build());
    }
    builder.execute();
  }

  private static Row oldRow(String loadId) {
    Object[] values = new Object[OLD_HISTORY.size()];
    values[0] = loadId;
    values[1] = "Sales.Order";
    values[2] = "succeeded";
    values[3] = Timestamp.from(Instant.parse("2026-01-02T03:04:05Z"));
    values[6] = 10L;
    return RowFactory.create(values);
  }

  private static Row row(String loadId, String status) {
    return CatalogueTable.LOAD_HISTORY
        .row()
        .set("load_id", loadId)
        .set("table_id", "Sales.Order")
        .set("status", status)
        .build();
  }

  private Row rowOf(String loadId) {
    return spark.read().format("delta").load(path()).where("load_id = '" + loadId + "'").first();
  }

  private String path() {
    return catalogue.path(CatalogueTable.LOAD_HISTORY);
  }

  private long version() {
    return DeltaTable.forPath(spark, path()).history(1).first().getLong(0);
  }

  private StructType deltaSchema() {
    return DeltaTable.forPath(spark, path()).toDF().schema();
  }

  /** How many Spark jobs {@code action} ran. */
  private int jobsOf(Runnable action) throws Exception {
    String group = "catalogue-evolution-" + System.nanoTime();
    spark.sparkContext().setJobGroup(group, group, false);
    try {
      action.run();
    } finally {
      spark.sparkContext().clearJobGroup();
    }
    spark.sparkContext().listenerBus().waitUntilEmpty();
    return spark.sparkContext().statusTracker().getJobIdsForGroup(group).length;
  }
}
