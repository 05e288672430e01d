package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weaver on a real Spark standalone cluster (one master, one worker, loopback; {@link
 * StandaloneCluster}): {@code bin/weaver run --master spark://…} of the example, Python Tables
 * included, and a {@code spark-submit --master spark://…} of a Python app using {@code
 * weaver.Workspace} and SQL statements, the bundle resolved by {@code --packages}. The executors
 * are JVMs of their own, so this catches what {@code local[*]} hides: classes the executors lack,
 * objects in tasks that do not serialise.
 */
class StandaloneClusterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static BundleSubmit submit;
  static StandaloneCluster cluster;
  static Path workspace;

  @BeforeAll
  static void startCluster() throws Exception {
    // pyspark's wheel is the Spark distribution the cluster runs (skipped without it, failed in CI)
    submit = BundleSubmit.prepare(Files.createDirectories(dir.resolve("submit")));
    workspace = BundleSubmit.copyExample(dir.resolve("workspace"));
    // The Logistics item holds every kind the cluster must run (a Python Table, Spark SQL Tables,
    // a dependant of each); the Sales item would add two more of the same kinds, a minute of CI.
    deleteTree(workspace.resolve("Lakehouse/Sales"));
    // The example's Python Tables return DataFrames only; this one runs Python on the executors.
    Path udfTable = workspace.resolve("Lakehouse/Cluster/Tables/Udf__Label.py");
    Files.createDirectories(udfTable.getParent());
    Files.writeString(
        udfTable,
        """
        \"""
        Table ID: Udf.Label

        Description: Five labels made by a Python UDF, which the executors run.

        Schema:
          id: bigint
          label: string

        Primary key: id
        \"""

        from pyspark.sql import functions as F

        from weaver import Table


        class Udf__Label(Table):
            def read(self):
                label = F.udf(lambda i: "n%d" % i, "string")
                return self.spark.range(5).select("id", label("id").alias("label"))
        """);
    long start = System.nanoTime();
    cluster = StandaloneCluster.start(submit.sparkHome, dir.resolve("cluster"), 2, "2g");
    System.out.println(
        "standalone cluster " + cluster.url + " up in " + millisSince(start) + " ms");
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void binWeaverRunLoadsTheExampleOnTheCluster() throws Exception {
    Path lakehouse = dir.resolve("cli-lakehouse");
    Set<String> before = cluster.appIds();
    long start = System.nanoTime();
    BinWeaverCheckTest.Result r =
        BinWeaverCheckTest.weaver(
            Map.of("SPARK_LOCAL_IP", "127.0.0.1"),
            "run",
            "--workspace",
            workspace.toString(),
            "--lakehouse",
            lakehouse.toString(),
            "--master",
            cluster.url,
            "--format",
            "json");
    System.out.println(
        "bin/weaver run --master " + cluster.url + ": " + millisSince(start) + " ms");
    assertEquals(0, r.exit(), r.out() + "\n--- stderr\n" + tail(r.err()) + cluster.logTail());

    Map<String, JsonNode> loads = new LinkedHashMap<>();
    JSON.readTree(r.out()).path("loads").forEach(l -> loads.put(l.path("table_id").asText(), l));
    loads.forEach(
        (t, l) -> System.out.println("  load " + t + ": " + l.path("duration_ms") + " ms"));
    // Python Tables (read() in the CLI's Python worker, the rows read by the executors)
    assertLoaded(loads, "Logistics.Parcel.Current", 500);
    assertLoaded(loads, "Cluster.Udf.Label", 5); // its UDF ran in Python under the executor
    // Spark SQL Tables, and the dependants of the Python Tables
    assertLoaded(loads, "Logistics.Depot.Site", 4);
    assertLoaded(loads, "Logistics.Parcel.Event", -1);
    assertLoaded(loads, "Logistics.Parcel.StatusCount", -1);
    assertEquals(
        "skipped", loads.get("Reporting.Parcel.StatusCount").path("status").asText(), "no T-SQL");

    // The table on disk: the load's MERGE, committed by the cluster's executors' writes.
    JsonNode commit =
        commitInfo(lakehouse.resolve("Logistics/Tables/Parcel/Current/_delta_log"), 1);
    assertEquals("MERGE", commit.path("operation").asText(), commit.toString());
    assertEquals(
        "500", commit.path("operationMetrics").path("numTargetRowsInserted").asText(), "" + commit);

    assertRanOnTheWorker(before, "weaver");
  }

  /**
   * The shipped artifact as a user submits it to a cluster: {@code spark-submit --master spark://…
   * --packages io.weaver:weaver-spark-4.1_2.13:<version>} of a Python app that imports {@code
   * weaver} from the bundle, builds, loads and restores a Table with SQL statements, and builds and
   * loads the example's Tables through {@code weaver.Workspace}, a Python Table included. (The
   * local-master {@code spark-submit} is the session contract's configuration, {@link
   * SessionContractTest}: one submitted process fewer in CI.)
   */
  @Test
  void sparkSubmitWithPackagesBuildsLoadsAndRestoresOnTheCluster() throws Exception {
    // The example plus a Shop item of one Table, which the app builds, loads, changes and
    // restores with SQL statements.
    Path submitWorkspace = dir.resolve("submit-workspace");
    BundleSubmit.copyTree(workspace, submitWorkspace);
    Path orders = submitWorkspace.resolve("Lakehouse/Shop/Tables/Sales.Orders.sql");
    Files.createDirectories(orders.getParent());
    Files.writeString(
        orders,
        """
        /*
        Table ID: Sales.Orders
        Description: Three orders, loaded through spark-submit.
        Primary key: order_id
        */
        select * from values (1, 'ada'), (2, 'bo'), (3, 'cy') as t(order_id, customer);
        """);
    // The Python API and SQL statements do not seed a lakehouse's file areas (bin/weaver does):
    // as in a notebook, the landing files are already where the item's Tables read them.
    Path lakehouse = dir.resolve("submit-lakehouse");
    BundleSubmit.copyTree(
        workspace.resolve("Lakehouse/Logistics/Files"), lakehouse.resolve("Logistics/Files"));
    Set<String> before = cluster.appIds();
    BundleSubmit.Result r =
        submit.runPythonApp(
            """
            import json
            import os
            import time
            import weaver  # from the bundle jar (spark-submit puts --packages jars on sys.path)
            from pyspark.sql import SparkSession, functions as F

            def emit(tag, value):
                print(tag, json.dumps(value, default=str), flush=True)

            emit("WEAVER_MODULE", weaver.__file__)
            emit("WEAVER_TABLE", hasattr(weaver, "Table"))
            spark = SparkSession.builder.appName("weaver-cluster-submit").getOrCreate()
            sc = spark.sparkContext
            emit("MASTER", sc.master)

            # SQL statements: build, load, a second delivery, RESTORE to the first load.
            t = time.monotonic()
            for row in spark.sql("BUILD WEAVER ITEM Shop").collect():
                emit("SQL_BUILD", row.asDict())
            for row in spark.sql("LOAD WEAVER TABLE Shop.Sales.Orders").collect():
                emit("SQL_LOAD", row.asDict())
                first_load_id = row["load_id"]
            rows = spark.sql(
                "SELECT order_id, customer FROM Shop.Sales.Orders ORDER BY order_id").collect()
            emit("ROWS", [r.asDict() for r in rows])
            table_file = os.path.join(
                spark.conf.get("spark.weaver.workspace"), "Lakehouse/Shop/Tables/Sales.Orders.sql")
            with open(table_file) as f:
                declaration = f.read()
            with open(table_file, "w") as f:
                f.write(declaration.replace("(2, 'bo'), (3, 'cy')", "(2, 'bea')"))
            for row in spark.sql("LOAD WEAVER TABLE Shop.Sales.Orders").collect():
                emit("SQL_LOAD2", row.asDict())
            restore = "RESTORE WEAVER TABLE Shop.Sales.Orders TO LOAD '%%s'" %% first_load_id
            for row in spark.sql(restore).collect():
                emit("RESTORE", row.asDict())
            rows = spark.sql(
                "SELECT order_id, customer FROM Shop.Sales.Orders ORDER BY order_id").collect()
            emit("ROWS_RESTORED", [r.asDict() for r in rows])
            emit("SECONDS", {"sql": round(time.monotonic() - t, 1)})

            # The Python API over the example's Logistics item.
            t = time.monotonic()
            ws = weaver.Workspace(spark, %s, lakehouse=%s)
            for table in ("Logistics.Depot.Site", "Logistics.Parcel.Current"):
                for row in ws.build(table):
                    emit("BUILD", row)
            emit("SECONDS", {"build": round(time.monotonic() - t, 1)})
            t = time.monotonic()
            # Parcel.Current is a Python Table: its read() runs here, in the driver's Python
            for table in ("Logistics.Depot.Site", "Logistics.Parcel.Current"):
                for row in ws.load(table):
                    emit("LOAD", row)
            emit("SECONDS", {"load": round(time.monotonic() - t, 1)})
            # A Python UDF: Python on the executors, over the loaded table's live rows
            length = F.udf(lambda s: len(s), "int")
            row = spark.table("Logistics.Parcel.Current").agg(
                F.count(length("parcel_id")).alias("n"),
                F.min(length("parcel_id")).alias("shortest")).first()
            emit("UDF", row.asDict())
            # the driver is listed too
            emit("EXECUTORS", len(sc._jsc.sc().statusTracker().getExecutorInfos()) - 1)
            spark.stop()
            """
                .formatted(
                    JSON.writeValueAsString(submitWorkspace.toString()),
                    JSON.writeValueAsString(lakehouse.toString())),
            Map.of(
                "spark.weaver.workspace", submitWorkspace.toString(),
                "spark.weaver.lakehouse", lakehouse.toString()),
            cluster.url);
    System.out.println(
        "spark-submit --master "
            + cluster.url
            + " --packages "
            + submit.coordinate()
            + ": "
            + r.millis()
            + " ms, app phases "
            + r.lines("SECONDS"));
    assertEquals(0, r.exit(), r.describe() + cluster.logTail());
    assertEquals(List.of(JSON.writeValueAsString(cluster.url)), r.lines("MASTER"), r.describe());
    assertResolvedFromTheRepository(r);

    assertSqlStatementsBuildLoadAndRestore(r, lakehouse);

    List<String> built = r.lines("BUILD");
    assertEquals(2, built.size(), r.describe());
    for (String b : built) {
      assertEquals("created", JSON.readTree(b).path("action").asText(), b);
    }
    Map<String, JsonNode> loads = new LinkedHashMap<>();
    for (String l : r.lines("LOAD")) {
      JsonNode load = JSON.readTree(l);
      loads.put(load.path("table_id").asText(), load);
    }
    assertLoaded(loads, "Logistics.Depot.Site", 4);
    assertLoaded(loads, "Logistics.Parcel.Current", 500);
    JsonNode udf = JSON.readTree(r.lines("UDF").get(0));
    assertEquals(500, udf.path("n").asInt(), udf.toString());
    assertTrue(udf.path("shortest").asInt() > 0, udf.toString());
    assertTrue(Integer.parseInt(r.lines("EXECUTORS").get(0)) >= 1, r.describe());

    assertRanOnTheWorker(before, "weaver-cluster-submit");
  }

  /**
   * Ivy resolved the bundle from the laid-out repository (not a stale copy in ~/.m2), byte for
   * byte, and {@code import weaver} came from that jar.
   */
  private static void assertResolvedFromTheRepository(BundleSubmit.Result r) throws IOException {
    assertTrue(
        r.err()
            .contains(
                "found io.weaver#"
                    + BundleSubmit.ARTIFACT_ID
                    + ";"
                    + submit.version
                    + " in repo-1"),
        "Ivy did not resolve the bundle from "
            + submit.repository
            + " (is an older copy installed in ~/.m2/repository/io/weaver?)\n"
            + r.describe());
    Path resolved =
        submit.dir.resolve(
            "ivy/jars/io.weaver_" + BundleSubmit.ARTIFACT_ID + "-" + submit.version + ".jar");
    assertArrayEquals(
        Files.readAllBytes(submit.bundle), Files.readAllBytes(resolved), "resolved jar differs");
    String module = JSON.readTree(r.lines("WEAVER_MODULE").get(0)).asText();
    assertTrue(
        module.endsWith(".jar/weaver/__init__.py") && module.contains(BundleSubmit.ARTIFACT_ID),
        "weaver was not imported from the bundle jar: " + module);
    assertEquals(List.of("true"), r.lines("WEAVER_TABLE"), r.describe());
  }

  /**
   * BUILD created Shop.Sales.Orders; the first LOAD inserted its three rows in one MERGE whose
   * commit names the load; the second delivery updated one order and soft-deleted another; RESTORE
   * put the first load's rows back as a new Delta version, and reads by name see them again.
   */
  private static void assertSqlStatementsBuildLoadAndRestore(BundleSubmit.Result r, Path lakehouse)
      throws IOException {
    List<String> build = r.lines("SQL_BUILD");
    assertEquals(1, build.size(), r.describe());
    JsonNode built = JSON.readTree(build.get(0));
    assertEquals("Shop.Sales.Orders", built.get("table_id").asText());
    assertEquals("created", built.get("action").asText(), build.get(0));

    List<String> load = r.lines("SQL_LOAD");
    assertEquals(1, load.size(), r.describe());
    JsonNode loaded = JSON.readTree(load.get(0));
    assertEquals("succeeded", loaded.get("status").asText(), load.get(0));
    assertEquals(3, loaded.get("rows_inserted").asInt(), load.get(0));
    assertEquals(3, loaded.get("target_live_rows_after").asInt(), load.get(0));
    assertEquals(1, loaded.get("delta_version").asInt(), load.get(0));
    JsonNode rows = JSON.readTree(r.lines("ROWS").get(0));
    assertEquals(
        "[{\"order_id\":1,\"customer\":\"ada\"},"
            + "{\"order_id\":2,\"customer\":\"bo\"},"
            + "{\"order_id\":3,\"customer\":\"cy\"}]",
        rows.toString());
    JsonNode commit = commitInfo(lakehouse.resolve("Shop/Tables/Sales/Orders/_delta_log"), 1);
    assertEquals("MERGE", commit.get("operation").asText());
    assertEquals("3", commit.get("operationMetrics").get("numTargetRowsInserted").asText());
    assertTrue(
        commit.get("userMetadata").asText().contains(loaded.get("load_id").asText()),
        "the commit receipt names the load: " + commit.get("userMetadata"));

    JsonNode second = JSON.readTree(r.lines("SQL_LOAD2").get(0));
    assertEquals("succeeded", second.get("status").asText(), second.toString());
    assertEquals(1, second.get("rows_updated").asInt(), second.toString());
    assertEquals(1, second.get("rows_deleted").asInt(), second.toString());
    assertEquals(2, second.get("target_live_rows_after").asInt(), second.toString());
    JsonNode restored = JSON.readTree(r.lines("RESTORE").get(0));
    assertEquals(
        loaded.get("load_id").asText(), restored.get("restored_to_load_id").asText(), r.describe());
    assertEquals(1, restored.get("restored_to_version").asInt(), restored.toString());
    assertEquals(rows.toString(), JSON.readTree(r.lines("ROWS_RESTORED").get(0)).toString());
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** {@code rows} inserted, or any number when {@code rows} is negative. */
  private static void assertLoaded(Map<String, JsonNode> loads, String table, int rows) {
    JsonNode load = loads.get(table);
    assertTrue(load != null, table + " was not loaded: " + loads.keySet());
    assertEquals("succeeded", load.path("status").asText(), load.toString());
    if (rows >= 0) {
      assertEquals(rows, load.path("rows_inserted").asInt(), load.toString());
      assertEquals(rows, load.path("target_live_rows_after").asInt(), load.toString());
    } else {
      assertTrue(load.path("rows_inserted").asInt() > 0, load.toString());
    }
  }

  /**
   * The application {@code name}, new since {@code before}, finished on the master, and its
   * executor ran in the worker (the worker's folder for it holds the executor's log and the jars
   * the driver shipped: Weaver's bundle and Delta's).
   */
  private static void assertRanOnTheWorker(Set<String> before, String name) throws Exception {
    String id = awaitFinished(before, name);
    List<String> files;
    try (Stream<Path> walk = Files.walk(cluster.workDir.resolve(id))) {
      files = walk.map(p -> p.getFileName().toString()).toList();
    }
    assertTrue(files.contains("stderr"), id + ": no executor ran in the worker: " + files);
    assertTrue(
        files.stream().anyMatch(f -> f.contains("weaver-spark-") && f.endsWith(".jar")),
        id + ": the executor did not get Weaver's bundle: " + files);
    assertTrue(
        files.stream().anyMatch(f -> f.startsWith("delta-spark_") && f.endsWith(".jar")),
        id + ": the executor did not get delta-spark: " + files);
    assertTrue(
        files.stream().anyMatch(f -> f.startsWith("delta-storage-") && f.endsWith(".jar")),
        id + ": the executor did not get delta-storage: " + files);
  }

  /** The master marks an application finished shortly after its driver disconnects. */
  private static String awaitFinished(Set<String> before, String name) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    JsonNode state = null;
    while (System.nanoTime() < deadline) {
      state = cluster.state();
      for (JsonNode app : state.path("completedapps")) {
        if (!before.contains(app.path("id").asText()) && app.path("name").asText().equals(name)) {
          assertEquals("FINISHED", app.path("state").asText(), app.toString());
          return app.path("id").asText();
        }
      }
      Thread.sleep(500);
    }
    return fail("no finished application " + name + " on the master: " + state);
  }

  private static JsonNode commitInfo(Path log, int version) throws IOException {
    Path file = log.resolve(String.format("%020d.json", version));
    for (String line : Files.readAllLines(file)) {
      JsonNode action = JSON.readTree(line);
      if (action.has("commitInfo")) {
        return action.get("commitInfo");
      }
    }
    return fail("no commitInfo in " + file);
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static String tail(String s) {
    List<String> all = s.lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - 80), all.size()));
  }
}
