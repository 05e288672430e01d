package io.weaver.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.install.BuildOutcome;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tables read data where it lives: a Delta table at a path, Parquet, CSV and JSON files under the
 * item's {@code Files/}, a table of the session catalog (by a two-part name no item table has), and
 * a table of a second catalog (Spark's JDBC catalog over an embedded H2 database). Each builds and
 * loads twice; the second delivery changes one row, drops one and adds one.
 */
class SourceReadsTest {
  /** The first delivery: ids 1–4. */
  private static final String FIRST = "(1, 'ann'), (2, 'bob'), (3, 'cy'), (4, 'dee')";

  /** The second: 1 and 4 unchanged, 2 renamed, 3 gone, 5 new. */
  private static final String SECOND = "(1, 'ann'), (2, 'bobby'), (4, 'dee'), (5, 'eve')";

  private static final String KEYED = WeaverFixture.KEYED;

  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Src");
  private final SparkSession spark = fixture.spark();
  private final String item = fixture.item();
  private final Path lake = fixture.lake();
  private final Path outside = fixture.dir().resolve("outside");
  private final String database = "raw_src" + fixture.number();
  private final String h2Url =
      "jdbc:h2:" + fixture.dir().resolve("h2/source") + ";DB_CLOSE_DELAY=-1";

  @BeforeEach
  void setUp() throws Exception {
    int n = fixture.number();
    String catalog = "spark.sql.catalog.srcdb" + n;
    spark
        .conf()
        .set(catalog, "org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog");
    spark.conf().set(catalog + ".url", h2Url);
    spark.conf().set(catalog + ".driver", "org.h2.Driver");
    try (Connection c = DriverManager.getConnection(h2Url);
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA \"crm\"");
      s.execute("CREATE TABLE \"crm\".\"customer\" (\"id\" INT PRIMARY KEY, \"name\" VARCHAR(20))");
    }
    spark.sql("CREATE DATABASE spark_catalog." + database);
    spark.sql(
        "CREATE TABLE spark_catalog." + database + ".customer (id INT, name STRING) USING delta");

    String srcdb = "srcdb" + n;
    table("Delta.Path", "select id, name from delta.`" + outside.resolve("customer") + "`;");
    table("Files.Parquet", "select id, name from parquet.`Files/landing/parquet`;");
    table("Files.Json", "select cast(id as int) as id, name from json.`Files/landing/json`;");
    table(
        "Files.Csv",
        "create temporary view delivered using csv options (path 'Files/landing/csv', header"
            + " 'true', inferSchema 'true');\nselect id, name from delivered;");
    table("Metastore.TwoPart", "select id, name from " + database + ".customer;");
    table("Jdbc.Customer", "select id, name from " + srcdb + ".crm.customer;");
  }

  private void table(String id, String body) {
    fixture.table(id, "Reads a source.", KEYED, body);
  }

  /** Writes one delivery to every source. */
  private void deliver(String rows) throws SQLException {
    String values = "select * from values " + rows + " as t(id, name)";
    var df = spark.sql(values);
    String files = LakehouseLayout.at(lake.toString()).itemFilesRoot(item) + "/landing";
    df.write().mode("overwrite").format("delta").save(outside.resolve("customer").toString());
    df.write().mode("overwrite").parquet(files + "/parquet");
    df.write().mode("overwrite").json(files + "/json");
    df.write().mode("overwrite").option("header", "true").csv(files + "/csv");
    spark.sql("INSERT OVERWRITE spark_catalog." + database + ".customer " + values);
    try (Connection c = DriverManager.getConnection(h2Url);
        Statement s = c.createStatement()) {
      s.execute("DELETE FROM \"crm\".\"customer\"");
      s.execute("INSERT INTO \"crm\".\"customer\" VALUES " + rows);
    }
  }

  private Map<String, String> counts(List<LoadResult> results) {
    return results.stream()
        .collect(
            Collectors.toMap(
                r -> r.tableId().substring(item.length() + 1),
                r ->
                    r.status()
                        + " +"
                        + r.rowsInserted()
                        + " ~"
                        + r.rowsUpdated()
                        + " -"
                        + r.rowsDeleted()
                        + (r.status() == LoadStatus.SUCCEEDED ? "" : " " + r.message()),
                (a, b) -> a,
                TreeMap::new));
  }

  @Test
  void everySourceKindBuildsAndLoadsTwiceWithExactCounts() throws Exception {
    deliver(FIRST);
    WeaverWorkspace weaver = fixture.weaver();
    List<BuildOutcome> built = weaver.build(Scope.all(), false);
    built.forEach(o -> assertEquals("created", o.action(), o.tableId() + ": " + o.message()));
    assertEquals(6, built.size());

    Map<String, String> first = counts(weaver.load(Scope.all(), false));
    first.forEach((t, c) -> assertEquals("succeeded +4 ~0 -0", c, t));
    assertEquals(6, first.size());

    deliver(SECOND);
    Map<String, String> second = counts(weaver.load(Scope.all(), false));
    second.forEach((t, c) -> assertEquals("succeeded +1 ~1 -1", c, t));
    assertEquals(6, second.size());

    List<String> live =
        spark
            .sql(
                "select id, name from "
                    + item
                    + ".Files.Csv where year(row_delete_datetime) = 9999 order by id")
            .collectAsList()
            .stream()
            .map(r -> r.get(0) + ":" + r.get(1))
            .toList();
    assertEquals(List.of("1:ann", "2:bobby", "4:dee", "5:eve"), live, "the item's live rows");

    Map<String, String> sources =
        catalogue(CatalogueTable.DEPENDENCY).stream()
            .collect(
                Collectors.toMap(
                    r -> r.getString(0),
                    r -> r.getString(4) + " " + r.getString(1) + " item=" + r.getString(2),
                    (a, b) -> a + " | " + b,
                    TreeMap::new));
    assertEquals(
        Map.of(
            "Delta.Path",
            "external delta.`" + outside.resolve("customer") + "` item=null",
            "Files.Parquet",
            "external parquet.`Files/landing/parquet` item=null",
            "Files.Json",
            "external json.`Files/landing/json` item=null",
            "Files.Csv",
            "external csv.`Files/landing/csv` item=null",
            "Metastore.TwoPart",
            "external " + database + ".customer item=null",
            "Jdbc.Customer",
            "external srcdb" + item.substring(3) + ".crm.customer item=null"),
        sources,
        "_.Dependency: every source, by its name or path as written");
  }

  @Test
  void aFilesPathCannotLeaveTheItemsFileArea() throws Exception {
    fixture.useWorkspace("ws-escape");
    table("Files.Escape", "select id, name from parquet.`Files/../../outside/customer`;");
    deliver(FIRST);
    WeaverWorkspace weaver = fixture.weaver();
    BuildOutcome escape =
        weaver.build(Scope.all(), false).stream()
            .filter(o -> o.tableId().endsWith("Files.Escape"))
            .findFirst()
            .orElseThrow();
    assertEquals("failed", escape.action(), escape.message());
    assertTrue(escape.message().contains("'..'"), escape.message());
    assertTrue(escape.message().contains("Files/../../outside/customer"), escape.message());
  }

  private List<Row> catalogue(CatalogueTable table) {
    return fixture.catalogue(table).collectAsList();
  }
}
