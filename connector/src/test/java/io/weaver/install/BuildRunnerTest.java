package io.weaver.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.testing.WeaverFixture;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BuildRunnerTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Build");
  private final SparkSession spark = fixture.spark();

  /** Item catalogs live as long as the shared session: each test gets its own item name. */
  private final String item = fixture.item();

  private final LakehouseLayout layout = fixture.layout();

  private static final String SITE =
      "/*\nTable ID: Depot.Site\nDescription: Depots.\nPrimary key: site_id\nNot null: [code]\n"
          + "Column notes:\n  code: Label code.\n*/\n"
          + "select site_id, code, region from values (1, 'AMS', 'N'), (2, 'RTM', 'N') as t(site_id, code, region);\n";

  private static final String PARCEL =
      "\"\"\"\nTable ID: Parcel.Current\nDescription: Parcels.\nIdentity: parcel_sk\n"
          + "Primary key: parcel_id\nSchema:\n  parcel_id: string\n  status: string\n  weight: decimal(9,3)\n"
          + "\"\"\"\nfrom weaver import Table\n\nclass Parcel__Current(Table):\n    def read(self):\n        return None\n";

  @BeforeEach
  void setUp() {
    write("Lakehouse/L/Tables/Depot.Site.sql", SITE);
    write("Lakehouse/L/Tables/Parcel__Current.py", PARCEL);
  }

  private void write(String relative, String content) {
    fixture.write(relative.replace("Lakehouse/L/", ""), content);
  }

  private Map<String, String> build(boolean allowDestructive) {
    List<BuildOutcome> outcomes = fixture.buildRunner().run(t -> true, allowDestructive);
    return outcomes.stream()
        .collect(
            Collectors.toMap(
                o -> o.tableId().replace(item + ".", "L."),
                o -> o.action() + ": " + o.message(),
                (a, b) -> a,
                TreeMap::new));
  }

  private String path(String id) {
    return fixture.path(id);
  }

  private long version(String path) {
    return DeltaTable.forPath(spark, path).history(1).first().getLong(0);
  }

  /** Versions of every table in the lakehouse, catalogue included. */
  private Map<String, Long> versions() {
    Map<String, Long> versions = new TreeMap<>();
    versions.put("site", version(path("Depot.Site")));
    versions.put("parcel", version(path("Parcel.Current")));
    for (CatalogueTable t : CatalogueTable.values()) {
      if (!t.createdByBuild()) {
        continue;
      }
      versions.put(t.tableName(), version(layout.cataloguePath(item, t.tableName())));
    }
    return versions;
  }

  @Test
  void createsTablesInSpecOrderThenRebuildWritesNothing() {
    Map<String, String> first = build(false);
    assertEquals(2, first.size(), first.toString());
    assertTrue(first.get("L.Depot.Site").startsWith("created"), first.toString());
    assertTrue(first.get("L.Parcel.Current").startsWith("created"), first.toString());

    StructType parcel = DeltaTable.forPath(spark, path("Parcel.Current")).toDF().schema();
    assertEquals(
        List.of(
            "parcel_sk",
            "parcel_id",
            "status",
            "weight",
            "row_insert_datetime",
            "row_update_datetime",
            "row_delete_datetime",
            "row_signature"),
        Arrays.stream(parcel.fields()).map(StructField::name).toList());
    assertFalse(parcel.apply("parcel_id").nullable());
    assertTrue(parcel.apply("status").nullable());
    assertFalse(parcel.apply("row_signature").nullable());
    assertEquals("decimal(9,3)", parcel.apply("weight").dataType().simpleString());

    Row detail = spark.sql("DESCRIBE DETAIL delta.`" + path("Parcel.Current") + "`").first();
    Map<String, String> properties = detail.getJavaMap(detail.fieldIndex("properties"));
    assertEquals("true", properties.get("delta.enableDeletionVectors"));
    assertEquals("Parcel.Current", properties.get("weaver.tableId"));
    assertEquals("Parcels.", detail.getString(detail.fieldIndex("description")));
    assertEquals(3, detail.getInt(detail.fieldIndex("minReaderVersion")));
    assertEquals(7, detail.getInt(detail.fieldIndex("minWriterVersion")));

    StructType site = DeltaTable.forPath(spark, path("Depot.Site")).toDF().schema();
    assertEquals(
        List.of("site_id", "code", "region"),
        Arrays.stream(site.fields()).limit(3).map(StructField::name).toList());
    assertFalse(site.apply("code").nullable());
    assertEquals("Label code.", site.apply("code").getComment().get());

    Dataset catalogue = new Dataset();
    assertEquals(2, catalogue.count(CatalogueTable.TABLE_DICTIONARY));
    assertEquals(2, catalogue.count(CatalogueTable.REGISTRY));
    // site: 3 business + 3 audit + signature; parcel: identity + 3 + 3 + signature
    assertEquals(15, catalogue.count(CatalogueTable.COLUMN_DICTIONARY));

    Map<String, Long> before = versions();
    Map<String, String> second = build(false);
    assertTrue(
        second.values().stream().allMatch(v -> v.startsWith("unchanged")), second.toString());
    assertEquals(before, versions(), "an unchanged rebuild writes no Delta version");
  }

  @Test
  void metadataChangeUpdatesTheCatalogueOnly() throws IOException {
    build(false);
    long tableVersion = version(path("Depot.Site"));
    write(
        "Lakehouse/L/Tables/Depot.Site.sql",
        SITE.replace("Description: Depots.", "Description: All depots."));
    Map<String, String> result = build(false);
    assertTrue(result.get("L.Depot.Site").startsWith("updated"), result.toString());
    assertTrue(result.get("L.Parcel.Current").startsWith("unchanged"), result.toString());
    assertEquals(tableVersion, version(path("Depot.Site")));
    Row row = new Dataset().where(CatalogueTable.TABLE_DICTIONARY, "table_id = 'Depot.Site'");
    assertEquals("All depots.", row.getString(row.fieldIndex("description")));
  }

  @Test
  void additiveColumnIsAddedInPlaceAndRowsAreResigned() throws IOException {
    build(false);
    write(
        "Lakehouse/L/Tables/Parcel__Current.py",
        PARCEL.replace("  weight: decimal(9,3)\n", "  weight: decimal(9,3)\n  colour: string\n"));
    Map<String, String> result = build(false);
    assertTrue(result.get("L.Parcel.Current").startsWith("altered"), result.toString());
    assertTrue(result.get("L.Parcel.Current").contains("added colour"), result.toString());
    StructType parcel = DeltaTable.forPath(spark, path("Parcel.Current")).toDF().schema();
    assertEquals(
        List.of(
            "parcel_sk",
            "parcel_id",
            "status",
            "weight",
            "colour",
            "row_insert_datetime",
            "row_update_datetime",
            "row_delete_datetime",
            "row_signature"),
        Arrays.stream(parcel.fields()).map(StructField::name).toList());
  }

  @Test
  void destructiveChangeIsRefusedUnlessAllowed() throws IOException {
    build(false);
    long before = version(path("Parcel.Current"));
    write("Lakehouse/L/Tables/Parcel__Current.py", PARCEL.replace("  weight: decimal(9,3)\n", ""));
    Map<String, String> refused = build(false);
    assertTrue(refused.get("L.Parcel.Current").startsWith("refused"), refused.toString());
    assertTrue(
        refused.get("L.Parcel.Current").contains("column 'weight' would be dropped"),
        refused.toString());
    assertEquals(before, version(path("Parcel.Current")), "a refused build writes nothing");

    Map<String, String> replaced = build(true);
    assertTrue(replaced.get("L.Parcel.Current").startsWith("replaced"), replaced.toString());
    assertEquals(before + 1, version(path("Parcel.Current")), "replaced in one commit");
    StructType parcel = DeltaTable.forPath(spark, path("Parcel.Current")).toDF().schema();
    assertFalse(Arrays.asList(parcel.fieldNames()).contains("weight"));
  }

  /** The process running a Build "died" (docs/reliability.md, "An interrupted Build"). */
  private static final class Killed extends RuntimeException {
    Killed(String id) {
      super("killed after creating " + id);
    }
  }

  /**
   * The first Build of an empty lakehouse is stopped right after its {@code stopAt}-th table is
   * created, before any catalogue row is written (as {@code bin/weaver run} killed there). The next
   * Build completes every table it left, refusing none, and records their keys; the one after
   * writes nothing.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aFirstBuildStoppedAfterACreateIsCompletedByTheNextBuild(int stopAt) {
    AtomicInteger creates = new AtomicInteger();
    BuildRunner interrupted =
        fixture
            .buildRunner()
            .afterCreate(
                id -> {
                  if (creates.incrementAndGet() == stopAt) {
                    throw new Killed(id);
                  }
                });
    assertThrows(Killed.class, () -> interrupted.run(t -> true, false));
    long made =
        List.of("Depot.Site", "Parcel.Current").stream()
            .filter(id -> DeltaTable.isDeltaTable(spark, path(id)))
            .count();
    assertEquals(stopAt, made, "the tables created before the stop are left");
    Dataset catalogue = new Dataset();
    assertEquals(0, catalogue.count(CatalogueTable.REGISTRY), "no catalogue row was written");
    assertEquals(0, catalogue.count(CatalogueTable.TABLE_DICTIONARY));

    Map<String, String> rerun = build(false);
    assertTrue(rerun.values().stream().allMatch(v -> v.startsWith("created")), rerun.toString());
    assertEquals(
        stopAt,
        rerun.values().stream().filter(v -> v.contains("an interrupted Build created")).count(),
        rerun.toString());
    assertEquals(2, catalogue.count(CatalogueTable.REGISTRY));
    Row site = catalogue.where(CatalogueTable.TABLE_DICTIONARY, "table_id = 'Depot.Site'");
    assertEquals(List.of("site_id"), site.getList(site.fieldIndex("primary_key")));
    Row parcel = catalogue.where(CatalogueTable.TABLE_DICTIONARY, "table_id = 'Parcel.Current'");
    assertEquals(List.of("parcel_id"), parcel.getList(parcel.fieldIndex("primary_key")));
    assertEquals("parcel_sk", parcel.getString(parcel.fieldIndex("identity_column")));
    Row key = catalogue.where(CatalogueTable.KEY_DICTIONARY, "table_id = 'Depot.Site'");
    assertEquals("site_id", key.getString(key.fieldIndex("column_name")));
    assertEquals(15, catalogue.count(CatalogueTable.COLUMN_DICTIONARY));
    StructType parcelSchema = DeltaTable.forPath(spark, path("Parcel.Current")).toDF().schema();
    assertEquals("parcel_sk", parcelSchema.fields()[0].name());
    assertTrue(Arrays.asList(parcelSchema.fieldNames()).contains("row_signature"));

    Map<String, Long> before = versions();
    Map<String, String> third = build(false);
    assertTrue(third.values().stream().allMatch(v -> v.startsWith("unchanged")), third.toString());
    assertEquals(before, versions(), "the completed tables are built: nothing more to write");
  }

  @Test
  void typeTheEngineRejectsIsReportedWithFileAndColumn() throws IOException {
    write("Lakehouse/L/Tables/Parcel__Current.py", PARCEL.replace("decimal(9,3)", "decimall(9,3)"));
    Map<String, String> result = build(false);
    String parcel = result.get("L.Parcel.Current");
    assertTrue(parcel.startsWith("failed"), parcel);
    assertTrue(parcel.contains("Lakehouse/" + item + "/Tables/Parcel__Current.py:9"), parcel);
    assertTrue(parcel.contains("column 'weight'"), parcel);
  }

  @Test
  void inferredShapeRulesAreApplied() throws IOException {
    write(
        "Lakehouse/L/Tables/Depot.Site.sql",
        "/*\nTable ID: Depot.Site\nDescription: Depots.\nPrimary key: site_id\n*/\n"
            + "select * from values (1, 'a') as t(site_id, row_signature);\n");
    Map<String, String> result = build(false);
    String site = result.get("L.Depot.Site");
    assertTrue(site.startsWith("failed") && site.contains("[managed-name]"), site);
  }

  /** Reads catalogue tables of item L. */
  private final class Dataset {
    long count(CatalogueTable table) {
      return spark
          .read()
          .format("delta")
          .load(layout.cataloguePath(item, table.tableName()))
          .count();
    }

    Row where(CatalogueTable table, String condition) {
      return spark
          .read()
          .format("delta")
          .load(layout.cataloguePath(item, table.tableName()))
          .where(condition)
          .first();
    }
  }
}
