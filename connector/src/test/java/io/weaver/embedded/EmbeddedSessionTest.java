package io.weaver.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.lakehouse.ItemCatalog;
import io.weaver.lakehouse.ItemCatalogs;
import io.weaver.session.EngineSessions;
import io.weaver.session.Evaluation;
import io.weaver.session.WeaverConf;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded session: its confs, and item catalogs that work in it. */
class EmbeddedSessionTest {
  @TempDir static Path lakehouse;
  static SparkSession spark;

  @BeforeAll
  static void start() {
    // create() must start its own context here: a session left by another test class would be
    // reused with its own static confs and catalogs.
    SparkSession.getActiveSession()
        .foreach(
            s -> {
              s.stop();
              return null;
            });
    SparkSession.getDefaultSession()
        .foreach(
            s -> {
              s.stop();
              return null;
            });
    // Its own session, not SharedSpark: this class tests the session EmbeddedSession.create makes.
    spark = EmbeddedSession.create(lakehouse, List.of("Logistics"), Optional.of("local[2]"));
    spark.conf().set("spark.sql.shuffle.partitions", "2");
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @Test
  void confsAreForALaptop() {
    Map<String, String> confs = EmbeddedSession.sessionConfs(lakehouse, Optional.empty());
    assertEquals("local[*]", confs.get("spark.master"));
    assertEquals("false", confs.get("spark.ui.enabled"));
    assertEquals(EmbeddedSession.DELTA_CATALOG, confs.get("spark.sql.catalog.spark_catalog"));
    assertEquals(
        lakehouse.toAbsolutePath() + "/.spark-warehouse", confs.get("spark.sql.warehouse.dir"));
    assertTrue(Integer.parseInt(confs.get("spark.sql.shuffle.partitions")) <= 64);
    assertEquals("1000", confs.get("spark.sql.codegen.cache.maxEntries"), "compiled code is kept");
    assertEquals(lakehouse.toAbsolutePath().toString(), confs.get(WeaverConf.LAKEHOUSE));
    String extensions = confs.get("spark.sql.extensions");
    assertEquals(
        EmbeddedSession.isOnClasspath(EmbeddedSession.WEAVER_EXTENSIONS)
            ? EmbeddedSession.WEAVER_EXTENSIONS + "," + EmbeddedSession.DELTA_EXTENSIONS
            : EmbeddedSession.DELTA_EXTENSIONS,
        extensions);
    assertEquals(
        "spark://h:7077",
        EmbeddedSession.sessionConfs(lakehouse, Optional.of("spark://h:7077")).get("spark.master"));
  }

  @Test
  void aClusterMasterShipsDeltasJarsButNotSparksAndLocalShipsNothing() {
    assertEquals(null, EmbeddedSession.sessionConfs(lakehouse, Optional.empty()).get("spark.jars"));
    assertEquals(
        null,
        EmbeddedSession.sessionConfs(lakehouse, Optional.of("local[2, 3]")).get("spark.jars"));
    for (String master : List.of("spark://h:7077", "local-cluster[1,1,1024]", "yarn")) {
      String jars = EmbeddedSession.sessionConfs(lakehouse, Optional.of(master)).get("spark.jars");
      assertTrue(jars != null, master);
      List<String> names =
          Arrays.stream(jars.split(",")).map(j -> Path.of(j).getFileName().toString()).toList();
      // Connector's own classes are a folder in this module's tests: only files are shipped.
      assertTrue(names.stream().anyMatch(n -> n.startsWith("delta-spark_")), jars);
      assertTrue(names.stream().anyMatch(n -> n.startsWith("delta-storage-")), jars);
      assertTrue(names.stream().noneMatch(n -> n.startsWith("spark-")), jars);
      assertTrue(jars.split(",").length <= ExecutorJars.MARKER_CLASSES.size(), jars);
    }
  }

  @Test
  void aClusterMasterFromSparkSubmitKeepsItsJarsAndAddsDeltas() {
    // spark-submit passes its settings as system properties
    System.setProperty("spark.master", "spark://h:7077");
    System.setProperty("spark.jars", "/submitted/app.jar");
    try {
      Map<String, String> confs = EmbeddedSession.sessionConfs(lakehouse, Optional.empty());
      assertEquals(null, confs.get("spark.master"), "spark-submit's master stays");
      List<String> jars = List.of(confs.get("spark.jars").split(","));
      assertEquals("/submitted/app.jar", jars.get(0));
      assertTrue(jars.stream().anyMatch(j -> j.contains("delta-spark_")), jars.toString());
    } finally {
      System.clearProperty("spark.master");
      System.clearProperty("spark.jars");
    }
  }

  @Test
  void shippedJarsComeAfterTheGivenOnesAndEachFileNameOnce() {
    Path delta = Path.of("/m2/io/delta/delta-spark_2.13-4.2.0.jar");
    Path bundle = Path.of("/w/target/weaver-spark-4.1_2.13-0.1.0.jar");
    assertEquals(
        "hdfs://nn/lib/delta-spark_2.13-4.2.0.jar,/u/extra.jar," + bundle,
        ExecutorJars.merge(
            Optional.of(" hdfs://nn/lib/delta-spark_2.13-4.2.0.jar, /u/extra.jar,,"),
            List.of(delta, bundle, bundle)));
    assertEquals(
        delta + "," + bundle, ExecutorJars.merge(Optional.empty(), List.of(delta, bundle)));
  }

  @Test
  void createdSessionHasTheItemCatalogAndDelta() {
    assertEquals(ItemCatalog.class.getName(), spark.conf().get("spark.sql.catalog.Logistics"));
    assertEquals(
        lakehouse.toAbsolutePath() + "/Logistics/Tables",
        spark.conf().get("spark.sql.catalog.Logistics.root"));
    spark.sql("CREATE TABLE Logistics.Parcel.Current (n INT) USING delta");
    spark.sql("INSERT INTO Logistics.Parcel.Current VALUES (1)");
    assertEquals(1L, spark.sql("SELECT * FROM Logistics.Parcel.Current").count());
    assertTrue(Files.isDirectory(lakehouse.resolve("Logistics/Tables/Parcel/Current/_delta_log")));
  }

  /**
   * The lakehouse is empty, so small: the session starts interpreted, and so do the engine's
   * sessions made beside it; a small input keeps it so, a large one (estimated by Spark's plan
   * statistics) turns compiled code on for the session, the input's and every later engine session.
   * Results are the same either way. (One test: the switch is one-way for the process.)
   */
  @Test
  void aSmallLakehouseRunsInterpretedUntilALoadReadsALargeInput() {
    SparkSession engine = EngineSessions.open(spark);
    for (SparkSession s : List.of(spark, engine)) {
      assertEquals("false", s.conf().get(Evaluation.WHOLE_STAGE));
      assertEquals("NO_CODEGEN", s.conf().get(Evaluation.FACTORY_MODE));
    }
    assertEquals(6L, sumOfGroupSums(spark));
    assertFalse(executedPlan(spark).contains("*("), executedPlan(spark));

    assertFalse(Evaluation.forInput(spark, spark.range(1000).toDF()), "8 kB: still small");
    assertEquals("false", spark.conf().get(Evaluation.WHOLE_STAGE));

    SparkSession other = spark.newSession();
    Dataset<Row> large = other.range(10_000_000).toDF(); // estimated at 80 MB
    assertTrue(Evaluation.forInput(spark, large));
    assertFalse(Evaluation.forInput(spark, large), "switched once");
    for (SparkSession s : List.of(spark, other, EngineSessions.open(spark))) {
      assertEquals("true", s.conf().get(Evaluation.WHOLE_STAGE));
      assertEquals("FALLBACK", s.conf().get(Evaluation.FACTORY_MODE));
    }
    assertEquals("false", engine.conf().get(Evaluation.WHOLE_STAGE), "made before: as it was");
    assertEquals(6L, sumOfGroupSums(spark));
    assertTrue(executedPlan(spark).contains("*("), "whole-stage code generation is on again");
  }

  /** The plan a small aggregation ran with: "*(n)" marks its whole-stage compiled parts. */
  private static String executedPlan(SparkSession session) {
    Dataset<Row> sum = session.range(4).groupBy().sum("id");
    sum.collect();
    return sum.queryExecution().executedPlan().toString();
  }

  private static long sumOfGroupSums(SparkSession session) {
    return session
        .range(4)
        .selectExpr("id % 3 AS k", "id")
        .groupBy("k")
        .sum("id")
        .selectExpr("sum(`sum(id)`)")
        .first()
        .getLong(0);
  }

  @Test
  void newSessionsSeeTheItemsGivenToCreate() {
    spark.sql("CREATE TABLE Logistics.Parcel.Shared (n INT) USING delta");
    SparkSession other = spark.newSession();
    assertEquals(0L, other.sql("SELECT * FROM Logistics.Parcel.Shared").count());
  }

  @Test
  void itemsRegisteredAtRuntimeWork() {
    ItemCatalogs.register(spark, lakehouse, "Fleet");
    ItemCatalogs.register(spark, lakehouse, "Fleet"); // same root: nothing to do
    spark.sql("CREATE TABLE Fleet.Vehicle.Truck (n INT) USING delta");
    assertEquals(List.of("Vehicle"), namespaces("Fleet"));
    assertTrue(Files.isDirectory(lakehouse.resolve("Fleet/Tables/Vehicle/Truck/_delta_log")));
    IllegalStateException moved =
        assertThrows(
            IllegalStateException.class,
            () -> ItemCatalogs.register(spark, lakehouse.resolve("elsewhere"), "Fleet"));
    assertTrue(moved.getMessage().contains("already registered"), moved.getMessage());
    // A runtime registration stays in its session, as documented on registerItem.
    SparkSession other = spark.newSession();
    assertThrows(Exception.class, () -> other.sql("SHOW NAMESPACES IN Fleet").collect());
    ItemCatalogs.register(other, lakehouse, "Fleet");
    assertEquals(0L, other.sql("SELECT * FROM Fleet.Vehicle.Truck").count());
  }

  @Test
  void sparkCatalogPersistsInAMetastoreUnderTheLakehouse() {
    // -Pspark-4.1.3 builds without spark-hive (connector/pom.xml); then spark_catalog is in memory
    Assumptions.assumeTrue(EmbeddedMetastore.hiveOnClasspath(), "Spark's Hive support is absent");
    assertEquals("hive", spark.conf().get("spark.sql.catalogImplementation"));
    spark.sql("CREATE SCHEMA IF NOT EXISTS spark_catalog.raw");
    spark.sql("CREATE TABLE spark_catalog.raw.kept (n INT) USING delta");
    spark.sql("INSERT INTO spark_catalog.raw.kept VALUES (7)");
    assertEquals(7, spark.sql("SELECT n FROM spark_catalog.raw.kept").first().getInt(0));
    Path metastore = lakehouse.resolve(EmbeddedMetastore.DIR);
    assertTrue(Files.isDirectory(metastore.resolve(EmbeddedMetastore.DATABASE)));
    assertTrue(Files.isRegularFile(metastore.resolve(EmbeddedMetastore.LOCK_FILE)));
    assertTrue(
        Files.isDirectory(metastore.resolve(EmbeddedMetastore.RESOURCES)),
        "Hive's session folder is the metastore's, not a new one in java.io.tmpdir per run");
    assertTrue(Files.isDirectory(lakehouse.resolve(".spark-warehouse/raw.db/kept/_delta_log")));
  }

  @Test
  void aMetastoreInUseIsRefusedAndMemoryModeNeedsNoLock() throws Exception {
    Path other = lakehouse.resolve("other");
    Path lockFile =
        Files.createDirectories(other.resolve(EmbeddedMetastore.DIR))
            .resolve(EmbeddedMetastore.LOCK_FILE);
    try (FileChannel channel =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock()) {
      IllegalStateException inUse =
          assertThrows(IllegalStateException.class, () -> EmbeddedMetastore.confs(other));
      assertTrue(inUse.getMessage().contains("in use by another process"), inUse.getMessage());
      assertTrue(inUse.getMessage().contains(lockFile.toString()), inUse.getMessage());
      System.setProperty(EmbeddedMetastore.MODE_PROPERTY, "memory");
      try {
        assertEquals(Map.of(), EmbeddedMetastore.confs(other));
      } finally {
        System.clearProperty(EmbeddedMetastore.MODE_PROPERTY);
      }
    }
  }

  @Test
  void unsafeItemNamesAreRefused() {
    for (String item : List.of("..", "a/b", "a.b", "", "spark_catalog")) {
      assertThrows(
          IllegalArgumentException.class,
          () -> ItemCatalogs.register(spark, lakehouse, item),
          item);
    }
  }

  private static List<String> namespaces(String catalog) {
    return spark.sql("SHOW NAMESPACES IN " + catalog).collectAsList().stream()
        .map(r -> r.getString(0))
        .toList();
  }
}
