package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped artifact as a user runs it: {@code spark-submit --packages
 * io.weaver:weaver-spark-4.1_2.13:<version>} with a Python app that imports {@code weaver} from the
 * bundle and builds and loads a Table with SQL statements. Also checks what the bundle holds.
 */
class SparkSubmitPackagesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void bundleHoldsWeaverAndShadedYamlButNoSparkDeltaOrAntlr() throws IOException {
    BundleSubmit.requireBundle();
    List<String> names = new ArrayList<>();
    try (ZipFile zip = new ZipFile(BundleSubmit.bundleJar().toFile())) {
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        names.add(e.nextElement().getName());
      }
    }
    for (String expected :
        List.of(
            "io/weaver/sql/WeaverSparkSessionExtensions.class", // sql-extensions
            "io/weaver/api/WeaverWorkspace.class", // connector
            "io/weaver/shaded/org/yaml/snakeyaml/Yaml.class", // relocated SnakeYAML
            "weaver/__init__.py", // the Python package at the jar root
            "weaver/table.py")) {
      assertTrue(names.contains(expected), "the bundle lacks " + expected);
    }
    assertTrue(
        names.stream().anyMatch(n -> n.startsWith("io/weaver/catalyst/")),
        "the bundle lacks the Catalyst rules");
    List<String> foreign =
        names.stream()
            .filter(n -> n.endsWith(".class"))
            .filter(n -> !n.startsWith("io/weaver/"))
            .limit(5)
            .toList();
    assertEquals(List.of(), foreign, "classes outside io/weaver/ (unshaded or not provided)");

    String pom = Files.readString(BundleSubmit.bundlePom(), StandardCharsets.UTF_8);
    Matcher dependency =
        Pattern.compile("<dependency>.*?</dependency>", Pattern.DOTALL).matcher(pom);
    int count = 0;
    while (dependency.find()) {
      String d = dependency.group();
      count++;
      assertTrue(
          d.contains("<scope>provided</scope>") || d.contains("<scope>test</scope>"),
          "the published POM must not make --packages pull a dependency the bundle holds: " + d);
      // The connector's test jar (test scope) is the one io.weaver dependency a POM may name:
      // neither --packages nor a Maven consumer resolves a dependency's test scope.
      assertFalse(
          d.contains("<groupId>io.weaver</groupId>") && !d.contains("<scope>test</scope>"), d);
      assertFalse(d.contains("snakeyaml"), d);
    }
    assertTrue(count > 0, "no dependencies in " + BundleSubmit.bundlePom());
  }

  @Test
  void sparkSubmitWithPackagesImportsWeaverBuildsAndLoadsATable() throws Exception {
    BundleSubmit submit = BundleSubmit.prepare(dir);
    // The example workspace plus a Shop item of one Table: the app builds, loads and restores
    // Shop.Sales.Orders, and loads the example's Spark SQL Tables that need no Python Table (a
    // snapshot with an identity, one with unique keys, an incremental Table with delete keys).
    // Each line's cross-version leg runs this with its own artifact (bin/test-spark-line).
    Path workspace = BundleSubmit.copyExample(dir.resolve("workspace"));
    List<String> exampleTables =
        List.of("Sales.Customer.Account", "Logistics.Depot.Site", "Logistics.Parcel.Event");
    Path lakehouse = dir.resolve("lakehouse");
    // As in a notebook, the example's landing files are already in the lakehouse's file areas
    // (bin/weaver seeds them; SQL statements do not).
    for (String item : List.of("Logistics", "Sales")) {
      BundleSubmit.copyTree(
          workspace.resolve("Lakehouse/" + item + "/Files"), lakehouse.resolve(item + "/Files"));
    }
    Path table = workspace.resolve("Lakehouse/Shop/Tables/Sales.Orders.sql");
    Files.createDirectories(table.getParent());
    Files.writeString(
        table,
        """
        /*
        Table ID: Sales.Orders
        Description: Three orders, loaded through spark-submit.
        Primary key: order_id
        */
        select * from values (1, 'ada'), (2, 'bo'), (3, 'cy') as t(order_id, customer);
        """);

    BundleSubmit.Result r =
        submit.runPythonApp(
            """
            import json
            import os
            import time
            import weaver  # from the bundle jar (spark-submit puts --packages jars on sys.path)
            from pyspark.sql import SparkSession

            def emit(tag, value):
                print(tag, json.dumps(value, default=str), flush=True)

            emit("WEAVER_MODULE", weaver.__file__)
            emit("WEAVER_TABLE", hasattr(weaver, "Table"))
            t = time.monotonic()
            spark = SparkSession.builder.appName("weaver-spark-submit").getOrCreate()
            emit("SECONDS", {"session": round(time.monotonic() - t, 1)})
            t = time.monotonic()
            for row in spark.sql("BUILD WEAVER ITEM Shop").collect():
                emit("BUILD", row.asDict())
            emit("SECONDS", {"build": round(time.monotonic() - t, 1)})
            t = time.monotonic()
            for row in spark.sql("LOAD WEAVER TABLE Shop.Sales.Orders").collect():
                emit("LOAD", row.asDict())
                first_load_id = row["load_id"]
            emit("SECONDS", {"load": round(time.monotonic() - t, 1)})
            rows = spark.sql(
                "SELECT order_id, customer FROM Shop.Sales.Orders ORDER BY order_id").collect()
            emit("ROWS", [r.asDict() for r in rows])
            # A second delivery (order 2 renamed, order 3 gone), then RESTORE to the first load.
            table_file = os.path.join(
                spark.conf.get("spark.weaver.workspace"), "Lakehouse/Shop/Tables/Sales.Orders.sql")
            with open(table_file) as f:
                declaration = f.read()
            with open(table_file, "w") as f:
                f.write(declaration.replace("(2, 'bo'), (3, 'cy')", "(2, 'bea')"))
            for row in spark.sql("LOAD WEAVER TABLE Shop.Sales.Orders").collect():
                emit("LOAD2", row.asDict())
            restore = "RESTORE WEAVER TABLE Shop.Sales.Orders TO LOAD '%%s'" %% first_load_id
            for row in spark.sql(restore).collect():
                emit("RESTORE", row.asDict())
            rows = spark.sql(
                "SELECT order_id, customer FROM Shop.Sales.Orders ORDER BY order_id").collect()
            emit("ROWS_RESTORED", [r.asDict() for r in rows])
            for table in %s:
                spark.sql("BUILD WEAVER TABLE " + table).collect()
                for row in spark.sql("LOAD WEAVER TABLE " + table).collect():
                    emit("EXAMPLE_LOAD", row.asDict())
                live = spark.sql("SELECT count(*) AS n FROM " + table).first()["n"]
                emit("EXAMPLE_LIVE", {"table": table, "rows": live})
            spark.stop()
            """
                .formatted(JSON.writeValueAsString(exampleTables)),
            Map.of(
                "spark.weaver.workspace", workspace.toString(),
                "spark.weaver.lakehouse", lakehouse.toString()));
    System.out.println(
        "spark-submit --packages "
            + submit.coordinate()
            + ": "
            + r.millis()
            + " ms, app phases "
            + r.lines("SECONDS"));
    assertEquals(0, r.exit(), r.describe());

    // The bundle came from the laid-out repository (not a stale copy in ~/.m2), byte for byte.
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
            + " (is an older copy"
            + " installed in ~/.m2/repository/io/weaver?)\n"
            + r.describe());
    Path resolved =
        dir.resolve(
            "ivy/jars/io.weaver_" + BundleSubmit.ARTIFACT_ID + "-" + submit.version + ".jar");
    assertArrayEquals(
        Files.readAllBytes(submit.bundle), Files.readAllBytes(resolved), "resolved jar differs");

    String module = JSON.readTree(r.lines("WEAVER_MODULE").get(0)).asText();
    assertTrue(
        module.endsWith(".jar/weaver/__init__.py") && module.contains(BundleSubmit.ARTIFACT_ID),
        "weaver was not imported from the bundle jar: " + module);
    assertEquals(List.of("true"), r.lines("WEAVER_TABLE"), r.describe());

    List<String> build = r.lines("BUILD");
    assertEquals(1, build.size(), r.describe());
    JsonNode built = JSON.readTree(build.get(0));
    assertEquals("Shop.Sales.Orders", built.get("table_id").asText());
    assertEquals("created", built.get("action").asText(), build.get(0));

    List<String> load = r.lines("LOAD");
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

    // The Delta table on disk: version 0 created by Build, version 1 the load's MERGE with its
    // receipt.
    Path log = lakehouse.resolve("Shop/Tables/Sales/Orders/_delta_log");
    assertTrue(Files.isRegularFile(log.resolve("00000000000000000000.json")), log.toString());
    JsonNode commit = null;
    for (String line : Files.readAllLines(log.resolve("00000000000000000001.json"))) {
      JsonNode action = JSON.readTree(line);
      if (action.has("commitInfo")) {
        commit = action.get("commitInfo");
      }
    }
    assertTrue(commit != null, "no commitInfo in version 1 of " + log);
    assertEquals("MERGE", commit.get("operation").asText());
    assertEquals("3", commit.get("operationMetrics").get("numTargetRowsInserted").asText());
    assertTrue(
        commit.get("userMetadata").asText().contains(loaded.get("load_id").asText()),
        "the commit receipt names the load: " + commit.get("userMetadata"));

    // The second delivery updated one order and soft-deleted another; RESTORE put the first
    // load's rows back as a new Delta version, and reads by name see them again.
    JsonNode second = JSON.readTree(r.lines("LOAD2").get(0));
    assertEquals("succeeded", second.get("status").asText(), second.toString());
    assertEquals(1, second.get("rows_updated").asInt(), second.toString());
    assertEquals(1, second.get("rows_deleted").asInt(), second.toString());
    assertEquals(2, second.get("target_live_rows_after").asInt(), second.toString());
    JsonNode restored = JSON.readTree(r.lines("RESTORE").get(0));
    assertEquals(
        loaded.get("load_id").asText(), restored.get("restored_to_load_id").asText(), r.describe());
    assertEquals(1, restored.get("restored_to_version").asInt(), restored.toString());
    assertEquals(rows.toString(), JSON.readTree(r.lines("ROWS_RESTORED").get(0)).toString());

    List<String> exampleLoads = r.lines("EXAMPLE_LOAD");
    List<String> exampleLive = r.lines("EXAMPLE_LIVE");
    assertEquals(exampleTables.size(), exampleLoads.size(), r.describe());
    for (int i = 0; i < exampleTables.size(); i++) {
      JsonNode exampleLoad = JSON.readTree(exampleLoads.get(i));
      assertEquals(
          exampleTables.get(i), exampleLoad.get("table_id").asText(), exampleLoad.toString());
      assertEquals("succeeded", exampleLoad.get("status").asText(), exampleLoad.toString());
      assertTrue(exampleLoad.get("rows_inserted").asLong() > 0, exampleLoad.toString());
      // Reads by name return the live rows the load reports.
      assertEquals(
          exampleLoad.get("target_live_rows_after").asLong(),
          JSON.readTree(exampleLive.get(i)).get("rows").asLong(),
          r.describe());
    }
  }
}
