package io.weaver.lakehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.testing.SharedSpark;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The item catalog against real Delta tables on disk, through SQL and the Delta API. */
class ItemCatalogTest {
  @TempDir static Path dir;
  static Path lakehouse;
  static Path root;
  static SparkSession spark;
  static Path warehouse;

  @BeforeAll
  static void start() {
    lakehouse = dir.resolve("lakehouse");
    root = lakehouse.resolve("Logistics").resolve("Tables");
    spark = SharedSpark.get();
    String dirConf = spark.conf().get("spark.sql.warehouse.dir");
    warehouse = dirConf.startsWith("file:") ? Path.of(URI.create(dirConf)) : Path.of(dirConf);
    // Registered on the running session: catalogs are instantiated lazily by name.
    ItemCatalogs.register(spark, lakehouse, "Logistics");
    spark.sql(
        "CREATE TABLE Logistics.Parcel.Current (parcel_id BIGINT, status STRING) USING delta");
  }

  @Test
  void createTableWritesTheDeltaLogUnderTheRoot() {
    assertTrue(Files.isDirectory(root.resolve("Parcel/Current/_delta_log")));
    Row detail = spark.sql("DESCRIBE DETAIL Logistics.Parcel.Current").first();
    String location = detail.getString(detail.fieldIndex("location"));
    assertTrue(location.endsWith("/Logistics/Tables/Parcel/Current"), location);
    assertFalse(Files.exists(warehouse.resolve("Parcel")));
  }

  @Test
  void dmlRunsThroughTheCatalog() {
    String t = "Logistics.Parcel.Current";
    spark.sql("INSERT INTO " + t + " VALUES (1, 'new'), (2, 'new'), (3, 'new')");
    spark.sql("UPDATE " + t + " SET status = 'sent' WHERE parcel_id = 1");
    spark.sql("DELETE FROM " + t + " WHERE parcel_id = 2");
    spark.sql(
        "MERGE INTO "
            + t
            + " AS t USING (SELECT 3L AS parcel_id, 'lost' AS status UNION ALL"
            + " SELECT 4L, 'new') AS s ON t.parcel_id = s.parcel_id"
            + " WHEN MATCHED THEN UPDATE SET status = s.status"
            + " WHEN NOT MATCHED THEN INSERT (parcel_id, status) VALUES (s.parcel_id, s.status)");
    assertEquals(
        List.of("1:sent", "3:lost", "4:new"),
        rows("SELECT parcel_id, status FROM " + t + " ORDER BY parcel_id"));
    spark.sql("OPTIMIZE " + t);
    List<String> operations =
        spark
            .sql("DESCRIBE HISTORY " + t)
            .orderBy("version")
            .select("operation")
            .collectAsList()
            .stream()
            .map(r -> r.getString(0))
            .toList();
    assertTrue(
        operations.containsAll(
            List.of("CREATE TABLE", "WRITE", "UPDATE", "DELETE", "MERGE", "OPTIMIZE")),
        operations.toString());
    assertEquals(
        List.of("1:sent", "3:lost", "4:new"),
        rows("SELECT parcel_id, status FROM " + t + " ORDER BY parcel_id"));
  }

  @Test
  void aTableNamedOrderWorks() {
    spark.sql("CREATE TABLE Logistics.Sales.`Order` (order_id INT) USING delta");
    spark.sql("INSERT INTO Logistics.Sales.`Order` VALUES (7)");
    assertEquals(List.of("7"), rows("SELECT order_id FROM Logistics.Sales.`Order`"));
    assertTrue(Files.isDirectory(root.resolve("Sales/Order/_delta_log")));
  }

  @Test
  void timeTravelByVersionAndTimestamp() {
    String t = "Logistics.Parcel.Travel";
    spark.sql("CREATE TABLE " + t + " (n INT) USING delta"); // version 0
    spark.sql("INSERT INTO " + t + " VALUES (1)"); // version 1
    spark.sql("INSERT INTO " + t + " VALUES (2), (3)"); // version 2
    assertEquals(List.of("1"), rows("SELECT count(*) FROM " + t + " VERSION AS OF 1"));
    long v1Millis =
        DeltaTable.forName(spark, t)
            .history()
            .where("version = 1")
            .first()
            .getTimestamp(1)
            .getTime();
    assertEquals(
        List.of("1"),
        rows("SELECT count(*) FROM " + t + " TIMESTAMP AS OF timestamp_millis(" + v1Millis + ")"));
    assertEquals(List.of("3"), rows("SELECT count(*) FROM " + t));
  }

  @Test
  void showTablesAndNamespacesListTheFolders() throws IOException {
    spark.sql("CREATE TABLE Logistics.Parcel.Listed (n INT) USING delta");
    Files.createDirectories(root.resolve("Parcel/NotATable")); // no _delta_log
    DeltaTable.create(spark)
        .location(root.resolve("_/Load").toString())
        .addColumn("load_id", "STRING")
        .execute();
    List<String> tables = rows("SHOW TABLES IN Logistics.Parcel").stream().toList();
    assertTrue(tables.stream().anyMatch(r -> r.startsWith("Parcel:Current:")), tables.toString());
    assertTrue(tables.stream().anyMatch(r -> r.startsWith("Parcel:Listed:")), tables.toString());
    assertFalse(tables.stream().anyMatch(r -> r.contains("NotATable")), tables.toString());
    List<String> namespaces = rows("SHOW NAMESPACES IN Logistics");
    assertTrue(namespaces.containsAll(List.of("Parcel", "_")), namespaces.toString());
    assertEquals(List.of("_:Load:false"), rows("SHOW TABLES IN Logistics.`_`"));
  }

  @Test
  void useCatalogAndSchemaThenUnqualifiedNames() {
    try {
      spark.sql("USE Logistics");
      long viaSchema = spark.sql("SELECT * FROM Parcel.Current").count();
      spark.sql("USE Logistics.Parcel");
      assertEquals(viaSchema, spark.sql("SELECT * FROM Current").count());
      assertEquals(
          spark.sql("SELECT * FROM Logistics.Parcel.Current").count(),
          spark.sql("SELECT * FROM Current").count());
    } finally {
      spark.sql("USE spark_catalog.default");
    }
  }

  @Test
  void deltaTableForNameResolvesThroughTheCatalog() {
    spark.sql("CREATE TABLE Logistics.Parcel.ByName (n INT) USING delta");
    spark.sql("INSERT INTO Logistics.Parcel.ByName VALUES (1), (2)");
    DeltaTable table = DeltaTable.forName(spark, "Logistics.Parcel.ByName");
    table.delete("n = 1");
    assertEquals(List.of("2"), rows("SELECT n FROM Logistics.Parcel.ByName"));
    assertEquals(3L, table.history().count());
  }

  @Test
  void unknownTableErrorsNameTheTable() {
    Exception sql =
        assertThrows(Exception.class, () -> spark.sql("SELECT * FROM Logistics.Parcel.Nope"));
    assertTrue(sql.getMessage().contains("`Logistics`.`Parcel`.`Nope`"), sql.getMessage());
    NoSuchTableException direct =
        assertThrows(
            NoSuchTableException.class,
            () -> catalog().loadTable(Identifier.of(new String[] {"Parcel"}, "Nope")));
    assertTrue(direct.getMessage().contains("Logistics.Parcel.Nope"), direct.getMessage());
    // A folder without a Delta log is not a table either.
    assertThrows(
        NoSuchTableException.class,
        () -> catalog().loadTable(Identifier.of(new String[] {"Parcel"}, "NotATable2")));
  }

  @Test
  void hostileNamesAreRefusedAndNothingLeavesTheRoot() throws IOException {
    Map<String, Boolean> before = filesOutsideRoot();
    for (String sql :
        List.of(
            "CREATE TABLE Logistics.`..`.Escape (n INT) USING delta",
            "CREATE TABLE Logistics.Parcel.`..` (n INT) USING delta",
            "CREATE TABLE Logistics.Parcel.`a/b` (n INT) USING delta",
            "CREATE TABLE Logistics.`a\\\\b`.c (n INT) USING delta",
            "CREATE TABLE Logistics.Parcel.`.` (n INT) USING delta",
            "CREATE NAMESPACE Logistics.`..`",
            "SELECT * FROM Logistics.`..`.Parcel",
            "SELECT * FROM Logistics.Parcel.`../../../x`")) {
      Exception e = assertThrows(Exception.class, () -> spark.sql(sql).collect(), sql);
      assertTrue(e.getMessage().contains("not allowed"), sql + " -> " + e.getMessage());
    }
    TableCatalog catalog = catalog();
    for (String bad : new String[] {"", "x\0y", "..", "a/b", "a\\b"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> catalog.loadTable(Identifier.of(new String[] {bad}, "T")));
      assertTrue(e.getMessage().startsWith("Schema name"), e.getMessage());
    }
    assertEquals(before, filesOutsideRoot());
  }

  @Test
  void tablesCreatedOnDiskByTheDeltaApiAreVisible() {
    for (String object : List.of("Truck", "Driver")) {
      DeltaTable.create(spark)
          .location(root.resolve("Fleet").resolve(object).toString())
          .addColumn(
              DeltaTable.columnBuilder(spark, "sk")
                  .dataType("BIGINT")
                  .generatedAlwaysAsIdentity()
                  .build())
          .addColumn("name", "STRING")
          .property("delta.enableDeletionVectors", "true")
          .execute();
    }
    assertEquals(
        List.of("Fleet:Driver:false", "Fleet:Truck:false"), rows("SHOW TABLES IN Logistics.Fleet"));
    spark.sql("INSERT INTO Logistics.Fleet.Truck (name) VALUES ('volvo'), ('scania')");
    spark.sql("DELETE FROM Logistics.Fleet.Truck WHERE name = 'volvo'");
    Row row = spark.sql("SELECT sk, name FROM Logistics.Fleet.Truck").first();
    assertFalse(row.isNullAt(0));
    assertEquals("scania", row.getString(1));
  }

  @Test
  void dropTableAndNamespace() {
    spark.sql("CREATE TABLE Logistics.Scratch.A (n INT) USING delta");
    Exception nonEmpty =
        assertThrows(Exception.class, () -> spark.sql("DROP NAMESPACE Logistics.Scratch"));
    assertTrue(nonEmpty.getMessage().contains("Scratch"), nonEmpty.getMessage());
    assertTrue(Files.isDirectory(root.resolve("Scratch/A/_delta_log")));
    spark.sql("DROP TABLE Logistics.Scratch.A");
    assertFalse(Files.exists(root.resolve("Scratch/A")));
    spark.sql("DROP NAMESPACE Logistics.Scratch");
    assertFalse(Files.exists(root.resolve("Scratch")));
    spark.sql("CREATE NAMESPACE Logistics.Empty");
    assertTrue(Files.isDirectory(root.resolve("Empty")));
    assertTrue(rows("SHOW NAMESPACES IN Logistics").contains("Empty"));
  }

  @Test
  void ctasReplaceAlterAndRenameKeepTheFolderLayout() {
    spark.sql("CREATE TABLE Logistics.Staged.A USING delta AS SELECT 1 AS n");
    spark.sql("CREATE OR REPLACE TABLE Logistics.Staged.A USING delta AS SELECT 2 AS n");
    spark.sql("ALTER TABLE Logistics.Staged.A ADD COLUMNS (note STRING)");
    assertEquals(List.of("2:null"), rows("SELECT * FROM Logistics.Staged.A"));
    assertEquals(3L, spark.sql("DESCRIBE HISTORY Logistics.Staged.A").count(), "history kept");
    spark.sql("ALTER TABLE Logistics.Staged.A RENAME TO Staged.B");
    assertTrue(Files.isDirectory(root.resolve("Staged/B/_delta_log")));
    assertFalse(Files.exists(root.resolve("Staged/A")));
    assertEquals(List.of("2:null"), rows("SELECT * FROM Logistics.Staged.B"));
    Exception located =
        assertThrows(
            Exception.class,
            () ->
                spark.sql(
                    "CREATE TABLE Logistics.Staged.C (n INT) USING delta LOCATION '"
                        + dir.resolve("elsewhere")
                        + "'"));
    assertTrue(located.getMessage().contains("remove LOCATION"), located.getMessage());
    assertFalse(Files.exists(dir.resolve("elsewhere")));
  }

  private static TableCatalog catalog() {
    return (TableCatalog)
        ((org.apache.spark.sql.classic.SparkSession) spark)
            .sessionState()
            .catalogManager()
            .catalog("Logistics");
  }

  /**
   * Every path under the temp folder but outside the item root, and under the session's warehouse,
   * with whether it is a folder.
   */
  private static Map<String, Boolean> filesOutsideRoot() throws IOException {
    Map<String, Boolean> files = new HashMap<>();
    try (Stream<Path> paths = Files.walk(dir)) {
      paths
          .filter(p -> !p.startsWith(root))
          .forEach(p -> files.put(dir.relativize(p).toString(), Files.isDirectory(p)));
    }
    try (Stream<Path> paths = Files.walk(warehouse)) {
      paths.forEach(p -> files.put("warehouse:" + warehouse.relativize(p), Files.isDirectory(p)));
    }
    return files;
  }

  private static List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream()
        .map(r -> r.toSeq().toStream().map(String::valueOf).mkString(":"))
        .toList();
  }
}
