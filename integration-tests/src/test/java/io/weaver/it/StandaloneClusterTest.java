package io.weaver.it;

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
 * weaver.Workspace}. The executors are JVMs of their own, so this catches what {@code local[*]}
 * hides: classes the executors lack, objects in tasks that do not serialise.
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

  @Test
  void sparkSubmitOfAPythonAppBuildsAndLoadsOnTheCluster() throws Exception {
    // The Python API does not seed a lakehouse's file areas (bin/weaver does): as in a notebook,
    // the landing files are already where the item's Tables read them.
    Path lakehouse = dir.resolve("submit-lakehouse");
    BundleSubmit.copyTree(
        workspace.resolve("Lakehouse/Logistics/Files"), lakehouse.resolve("Logistics/Files"));
    Set<String> before = cluster.appIds();
    BundleSubmit.Result r =
        submit.runPythonApp(
            """
            import json
            import time
            import weaver
            from pyspark.sql import SparkSession, functions as F

            def emit(tag, value):
                print(tag, json.dumps(value, default=str), flush=True)

            spark = SparkSession.builder.appName("weaver-cluster-submit").getOrCreate()
            sc = spark.sparkContext
            emit("MASTER", sc.master)
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
                    JSON.writeValueAsString(workspace.toString()),
                    JSON.writeValueAsString(lakehouse.toString())),
            Map.of(),
            cluster.url);
    System.out.println(
        "spark-submit --master "
            + cluster.url
            + ": "
            + r.millis()
            + " ms, app phases "
            + r.lines("SECONDS"));
    assertEquals(0, r.exit(), r.describe() + cluster.logTail());
    assertEquals(List.of(JSON.writeValueAsString(cluster.url)), r.lines("MASTER"), r.describe());

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
