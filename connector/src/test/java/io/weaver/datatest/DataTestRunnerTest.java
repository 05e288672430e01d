package io.weaver.datatest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Test end to end: a small workspace is built and loaded, then violating rows are written straight
 * into the Delta tables (bypassing Weaver) and each generated kind must notice them — and only the
 * live ones.
 *
 * <p>The item is built and loaded once for the class (that costs far more than the tests' reads);
 * each test's writes are undone after it by Delta's RESTORE to the loaded versions, and the
 * restored tables are checked against the loaded rows and schemas, so no test sees another's rows.
 */
class DataTestRunnerTest {
  private static final String GATES = WeaverFixture.GATES_OFF;
  private static final String LIVE = "timestamp_micros(253402214400000000L)";
  private static final String GONE = "timestamp_micros(1704067200000000L)";
  private static final List<String> TABLES = List.of("Parcel.Site", "Parcel.Current");

  @RegisterExtension static final WeaverFixture fixture = WeaverFixture.sharedItem("Verify");
  private static final SparkSession spark = fixture.spark();
  private static final String item = fixture.item();
  private static final WeaverWorkspace weaver = fixture.weaver();

  /** Per Table: the loaded version, its rows and schema, and the latest version known clean. */
  private static final Map<String, Long> loaded = new LinkedHashMap<>();

  private static final Map<String, List<Row>> loadedRows = new LinkedHashMap<>();
  private static final Map<String, StructType> loadedSchemas = new LinkedHashMap<>();
  private static final Map<String, Long> clean = new LinkedHashMap<>();

  private static void write(String relative, String text) {
    fixture.write(relative, text);
  }

  private static void table(String id, String header, String body) {
    fixture.table(id, header + GATES, body);
  }

  /** Parcel.Site (parent) and Parcel.Current (every generated kind), built and loaded once. */
  @BeforeAll
  static void parcels() throws IOException {
    table(
        "Parcel.Site",
        "Primary key: site_id\n",
        "select site_id, region from values (1, 'N'), (2, 'S') as t(site_id, region);\n");
    table(
        "Parcel.Current",
        "Primary key: parcel_id\nUnique keys:\n  - code\nNot null: [status]\n"
            + "Foreign keys:\n  - site_id: Parcel.Site[site_id]\n",
        "select parcel_id, code, status, site_id from values\n"
            + "  ('P1', 'c1', 'new', 1), ('P2', 'c2', 'new', 2), ('P3', cast(null as string),"
            + " 'new', cast(null as int))\n  as t(parcel_id, code, status, site_id);\n");
    weaver.build(Scope.item(item), false);
    List<LoadResult> loads = weaver.load(Scope.item(item), false);
    assertTrue(loads.stream().allMatch(r -> r.status() == LoadStatus.SUCCEEDED), loads.toString());
    for (String id : TABLES) {
      long version = fixture.version(id);
      loaded.put(id, version);
      clean.put(id, version);
      loadedRows.put(id, sorted(fixture.rows(id)));
      loadedSchemas.put(id, fixture.rows(id).schema());
    }
  }

  /**
   * Undoes a test's writes: authored tests are removed and each Table a test wrote to is restored
   * to its loaded version, then must hold the loaded rows and schema again (NOT NULL included).
   */
  @AfterEach
  void restore() throws IOException {
    Path tests = fixture.workspace().resolve("Lakehouse/" + item + "/Tests");
    if (Files.exists(tests)) {
      try (Stream<Path> paths = Files.walk(tests)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    for (String id : TABLES) {
      if (fixture.version(id) == clean.get(id)) {
        continue;
      }
      DeltaTable.forPath(spark, path(id)).restoreToVersion(loaded.get(id));
      assertEquals(loadedSchemas.get(id), fixture.rows(id).schema(), id + " schema restored");
      assertEquals(loadedRows.get(id), sorted(fixture.rows(id)), id + " rows restored");
      clean.put(id, fixture.version(id));
    }
  }

  private static List<Row> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().sorted(Comparator.comparing(Row::toString)).toList();
  }

  private static String path(String id) {
    return fixture.path(id);
  }

  /** Writes a parcel straight into Delta, as a live row or a soft-deleted one. */
  private void parcel(String id, String code, String status, String site, boolean live) {
    spark.sql(
        "insert into delta.`"
            + path("Parcel.Current")
            + "` (parcel_id, code, status, site_id, row_insert_datetime, row_update_datetime,"
            + " row_delete_datetime, row_signature) values ("
            + String.join(", ", id, code, status, site)
            + ", current_timestamp(), current_timestamp(), "
            + (live ? LIVE : GONE)
            + ", 'x')");
  }

  private void dropNotNull(String table, String column) {
    spark.sql("alter table delta.`" + path(table) + "` alter column " + column + " drop not null");
  }

  private Map<String, DataTestResult> byId(List<DataTestResult> results) {
    Map<String, DataTestResult> m = new LinkedHashMap<>();
    results.forEach(r -> m.put(r.testId(), r));
    return m;
  }

  private static Set<Object> values(DataTestResult r, String column) {
    Set<Object> values = new TreeSet<>();
    r.sample().forEach(row -> values.add(String.valueOf(row.get(column))));
    return values;
  }

  @Test
  void cleanDataPassesEveryGeneratedTest() throws IOException {
    List<DataTestResult> results = weaver.test(Scope.item(item));
    assertEquals(
        List.of(
            "Parcel.Current:primary-key",
            "Parcel.Current:unique-key:1",
            "Parcel.Current:not-null:status",
            "Parcel.Current:foreign-key:1",
            "Parcel.Site:primary-key"),
        results.stream().map(DataTestResult::testId).toList());
    assertEquals(
        List.of("primary-key", "unique-key", "not-null", "foreign-key", "primary-key"),
        results.stream().map(DataTestResult::kind).toList());
    for (DataTestResult r : results) {
      assertEquals("passed", r.status(), r.toString());
      assertEquals("error", r.severity());
      assertEquals(0, r.violations());
      assertTrue(r.sample().isEmpty());
      assertNull(r.message());
    }
    assertEquals(item + ".Parcel.Current", results.get(0).tableId());
    assertEquals(
        List.of(
            "test_id", "table_id", "kind", "severity", "status", "violations", "sample", "message"),
        List.copyOf(results.get(0).toMap().keySet()));
  }

  @Test
  void duplicatePrimaryKeysFailAndSoftDeletedRowsAreIgnored() throws IOException {
    parcel("'P1'", "'c7'", "'new'", "1", true);
    parcel("'P2'", "'c8'", "'new'", "2", false);
    Map<String, DataTestResult> results = byId(weaver.test(Scope.table(item + ".Parcel.Current")));
    assertEquals(4, results.size(), "only the one Table's tests: " + results.keySet());
    DataTestResult pk = results.get("Parcel.Current:primary-key");
    assertEquals("failed", pk.status());
    assertEquals(2, pk.violations(), "both live P1 rows; the deleted P2 copy does not count");
    assertEquals(Set.of("P1"), values(pk, "parcel_id"));
    assertEquals(Set.of("c1", "c7"), values(pk, "code"));
    assertEquals(
        List.of("parcel_id", "code", "status", "site_id"),
        List.copyOf(pk.sample().get(0).keySet()),
        "samples carry business columns, not managed ones");
    assertEquals("passed", results.get("Parcel.Current:unique-key:1").status());
    assertEquals("passed", results.get("Parcel.Current:foreign-key:1").status());
  }

  @Test
  void nullsInKeyAndNotNullColumnsFail() throws IOException {
    dropNotNull("Parcel.Current", "parcel_id");
    dropNotNull("Parcel.Current", "status");
    parcel("cast(null as string)", "'c8'", "'new'", "1", true);
    parcel("'P9'", "'c9'", "cast(null as string)", "1", true);
    parcel("'P10'", "'c10'", "cast(null as string)", "1", false);
    Map<String, DataTestResult> results = byId(weaver.test(Scope.item(item)));
    DataTestResult pk = results.get("Parcel.Current:primary-key");
    assertEquals("failed", pk.status());
    assertEquals(1, pk.violations());
    assertNull(pk.sample().get(0).get("parcel_id"));
    assertEquals("c8", pk.sample().get(0).get("code"));
    DataTestResult notNull = results.get("Parcel.Current:not-null:status");
    assertEquals("failed", notNull.status());
    assertEquals(1, notNull.violations(), "the soft-deleted P10 is not counted");
    assertEquals("P9", notNull.sample().get(0).get("parcel_id"));
    assertEquals("passed", results.get("Parcel.Site:primary-key").status());
  }

  @Test
  void uniqueKeyCollisionsFailButNullsNeverCollide() throws IOException {
    parcel("'P4'", "'c1'", "'new'", "1", true);
    parcel("'P5'", "cast(null as string)", "'new'", "1", true); // P3 has a null code too
    parcel("'P6'", "'c2'", "'new'", "1", false);
    Map<String, DataTestResult> results = byId(weaver.test(Scope.item(item)));
    DataTestResult unique = results.get("Parcel.Current:unique-key:1");
    assertEquals("failed", unique.status());
    assertEquals("unique-key", unique.kind());
    assertEquals(2, unique.violations());
    assertEquals(Set.of("P1", "P4"), values(unique, "parcel_id"));
    assertEquals("passed", results.get("Parcel.Current:primary-key").status());
  }

  @Test
  void orphansFailAgainstTheParentsLiveRows() throws IOException {
    parcel("'P7'", "'c7'", "'new'", "99", true);
    parcel("'P8'", "'c8'", "'new'", "cast(null as int)", true);
    parcel("'P9'", "'c9'", "'new'", "98", false);
    // Site 2 is soft-deleted: P2 now points at no live parent.
    spark.sql(
        "update delta.`"
            + path("Parcel.Site")
            + "` set row_delete_datetime = current_timestamp() where site_id = 2");
    DataTestResult fk = byId(weaver.test(Scope.item(item))).get("Parcel.Current:foreign-key:1");
    assertEquals("failed", fk.status());
    assertEquals("foreign-key", fk.kind());
    assertEquals(
        2, fk.violations(), "P7 (no site 99) and P2 (site 2 deleted); nulls are not checked");
    assertEquals(Set.of("P2", "P7"), values(fk, "parcel_id"));
  }

  @Test
  void sampleHoldsAtMostFiveRows() throws IOException {
    for (int i = 0; i < 7; i++) {
      parcel("'P1'", "'d" + i + "'", "'new'", "1", true);
    }
    DataTestResult pk = byId(weaver.test(Scope.item(item))).get("Parcel.Current:primary-key");
    assertEquals(8, pk.violations());
    assertEquals(5, pk.sample().size());
  }

  /** Needs Tables not built yet, so it has an item of its own. */
  @Test
  void tablesNotBuiltFailWithAMessage() throws IOException {
    WeaverFixture own = WeaverFixture.item("Unbuilt");
    try {
      String item = own.item();
      WeaverWorkspace weaver = own.weaver();
      own.table(
          "Parcel.Site",
          "Primary key: site_id\n" + GATES,
          "select site_id from values (1) as t(site_id);\n");
      own.table(
          "Parcel.Current",
          "Primary key: parcel_id\nForeign keys:\n  - site_id: Parcel.Site[site_id]\n"
              + "  - hub_id: Files/Hub.List[hub_id]\n"
              + GATES,
          "select parcel_id, site_id, hub_id from values ('P1', 1, 1) as t(parcel_id, site_id,"
              + " hub_id);\n");
      Map<String, DataTestResult> before = byId(weaver.test(Scope.item(item)));
      for (DataTestResult r : before.values()) {
        assertEquals("failed", r.status());
        assertTrue(r.message().contains("not built"), r.message());
      }
      weaver.build(Scope.table(item + ".Parcel.Current"), false);
      weaver.load(Scope.table(item + ".Parcel.Current"), false);
      Map<String, DataTestResult> after = byId(weaver.test(Scope.item(item)));
      assertEquals("passed", after.get("Parcel.Current:primary-key").status());
      DataTestResult fk = after.get("Parcel.Current:foreign-key:1");
      assertEquals("failed", fk.status());
      assertTrue(fk.message().contains(item + ".Parcel.Site is not built"), fk.message());
      DataTestResult files = after.get("Parcel.Current:foreign-key:2");
      assertEquals("failed", files.status());
      assertTrue(files.message().contains("Files/Hub.List"), files.message());
      assertEquals("failed", after.get("Parcel.Site:primary-key").status());
    } finally {
      own.close();
    }
  }

  @Test
  void authoredTestsRunInTheItemWithTheirSeverity() throws IOException {
    write(
        "Tests/NoNewParcels.sql",
        "/*\nTest ID: NoNewParcels\nDescription: Parcels should move on.\nSeverity: warning\n*/\n"
            + "select parcel_id from Parcel.Current where status = 'new' order by parcel_id;\n");
    write(
        "Tests/SitesHaveRegions.sql",
        "/*\nTest ID: SitesHaveRegions\nDescription: Every site has a region.\n*/\n"
            + "select * from Parcel.Site where region is null;\n");
    Map<String, DataTestResult> results = byId(weaver.test(Scope.item(item)));
    DataTestResult warning = results.get("NoNewParcels");
    assertEquals("authored", warning.kind());
    assertEquals("warning", warning.severity());
    assertEquals(item, warning.tableId());
    assertEquals("failed", warning.status());
    assertEquals(3, warning.violations());
    assertEquals(Set.of("P1", "P2", "P3"), values(warning, "parcel_id"));
    assertTrue(!warning.isErrorFailure());
    DataTestResult error = results.get("SitesHaveRegions");
    assertEquals("error", error.severity());
    assertEquals("passed", error.status());
    assertTrue(
        byId(weaver.test(Scope.table(item + ".Parcel.Current"))).keySet().stream()
            .noneMatch(id -> id.equals("NoNewParcels")),
        "a Table scope runs no authored tests");
  }
}
