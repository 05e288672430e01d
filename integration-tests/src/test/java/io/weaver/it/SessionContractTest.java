package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The session contract (docs/table-contract.md, "Reads by name"), one suite run in every
 * configuration a user has: the CLI's embedded session with its persistent metastore and with the
 * in-memory catalog, a fresh notebook-like PySpark session with only the README's settings (first
 * statement a plain {@code SELECT} by name, or {@code spark.table}), both extension orders, a
 * Hive-backed notebook session (Fabric's), {@code spark-submit} with the shipped bundle, and a
 * Spark Connect client of a real server.
 *
 * <p>One lakehouse is prepared once by the CLI, as the README's main command does: the workspace
 * {@code session-contract} run, a second delivery (one customer gone, one visit cancelled), then
 * its Shop item loaded again. Every configuration works on its own copy: its first statement reads
 * {@code Shop.Sales.Customer} by name, then the probes of {@code contract_app.py} (or the CLI's
 * SQL) read live rows by name in every form, every row when asked and by path, time travel by name,
 * the incremental Table's read-back, a derived Table's load over the soft-deleted customer, a
 * guarded UPDATE and an append as a load. Each configuration is one process, so the suite costs one
 * process start per configuration.
 */
@ParameterizedClass
@EnumSource(SessionContractTest.Configuration.class)
@Execution(ExecutionMode.CONCURRENT)
class SessionContractTest {
  /** Customers delivered first, and live after the second delivery (customer 10 left). */
  static final long DELIVERED = 10;

  static final long LIVE = 9;

  /** Visits delivered first, and live after the second delivery cancelled visit 2. */
  static final long VISITS_LIVE = 4;

  /** How a user runs Weaver. */
  enum Configuration {
    CLI_DEFAULT,
    CLI_IN_MEMORY_CATALOG,
    NOTEBOOK_FIRST_SQL,
    NOTEBOOK_FIRST_SPARK_TABLE,
    NOTEBOOK_DELTA_EXTENSION_FIRST,
    NOTEBOOK_HIVE_CATALOG,
    NOTEBOOK_HIVE_CATALOG_DELTA_EXTENSION_FIRST,
    SPARK_SUBMIT_BUNDLE,
    SPARK_CONNECT;

    boolean cli() {
      return this == CLI_DEFAULT || this == CLI_IN_MEMORY_CATALOG;
    }
  }

  @Parameter Configuration configuration;

  private static final Map<Configuration, CompletableFuture<Map<String, String>>> RESULTS =
      new ConcurrentHashMap<>();
  private static Seed seed;
  private static Throwable seedFailure;

  // ---- the contract ----

  @Test
  @Execution(
      ExecutionMode.SAME_THREAD) // one configuration's tests in order; configurations side by side
  void theFirstStatementReadsLiveRowsByName() throws Exception {
    assertProbe("first", LIVE);
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void everyFormOfReadByNameReturnsLiveRows() throws Exception {
    Map<String, String> probes = probes();
    List<String> names = new ArrayList<>(List.of("live_sql", "short_name", "time_travel"));
    if (!configuration.cli()) {
      names.addAll(List.of("live_table", "live_read_table", "live_weaver_format"));
    }
    assertAll(names.stream().map(name -> () -> assertValue(probes, name, LIVE)));
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void everyRowWhenAskedAndByPath() throws Exception {
    Map<String, String> probes = probes();
    List<String> names = new ArrayList<>(List.of("all_sql_options", "all_by_path"));
    // A DataFrame read's options in a Hive session with Delta's extension first: a known limit
    // (docs/dataframe-api.md, "Limits"), the one configuration where includeDeleted must be given
    // in SQL or to format("weaver").
    if (!configuration.cli()
        && configuration != Configuration.NOTEBOOK_HIVE_CATALOG_DELTA_EXTENSION_FIRST) {
      names.add("all_option");
    }
    assertAll(names.stream().map(name -> () -> assertValue(probes, name, DELIVERED)));
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void anIncrementalTableReadsBackWithoutTheRowsItsDeleteKeysRemoved() throws Exception {
    assertProbe("incremental", VISITS_LIVE);
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void aDerivedTableLoadedInTheSessionCountsOnlyLiveRows() throws Exception {
    Map<String, String> probes = probes();
    assertEquals("succeeded", probes.get("derived_load"), describe(probes));
    assertValue(probes, "derived", LIVE);
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void anUpdateOfEveryRowByNameIsRefused() throws Exception {
    Map<String, String> probes = probes();
    if (configuration == Configuration.CLI_IN_MEMORY_CATALOG) {
      return; // the same statement as CLI_DEFAULT's; one CLI process less
    }
    String guard = probes.get("guard");
    assertTrue(guard != null && guard.contains("WHERE"), "guard: " + guard + describe(probes));
  }

  @Test
  @Execution(ExecutionMode.SAME_THREAD)
  void anAppendByNameIsALoad() throws Exception {
    Map<String, String> probes = probes();
    if (configuration == Configuration.CLI_IN_MEMORY_CATALOG) {
      return; // as above
    }
    assertValue(probes, "append", VISITS_LIVE + 1);
  }

  private void assertProbe(String name, long expected) throws Exception {
    assertValue(probes(), name, expected);
  }

  private void assertValue(Map<String, String> probes, String name, long expected) {
    assertEquals(
        Long.toString(expected),
        probes.get(name),
        configuration + " probe " + name + describe(probes));
  }

  private String describe(Map<String, String> probes) {
    return "\n  in " + configuration + ", all probes: " + probes;
  }

  // ---- running a configuration ----

  /**
   * The configuration's probes, run once: a configuration that fails fails each of its tests with
   * the same error. Configurations run two at a time (each is one process of its own, mostly
   * starting a JVM and warming Delta up).
   */
  private Map<String, String> probes() throws Exception {
    String only = System.getProperty("weaver.contract.configurations", "").strip();
    Assumptions.assumeTrue(
        only.isEmpty() || List.of(only.split(",")).contains(configuration.name()),
        "-Dweaver.contract.configurations=" + only + " leaves out " + configuration);
    CompletableFuture<Map<String, String>> mine = new CompletableFuture<>();
    CompletableFuture<Map<String, String>> outcome = RESULTS.putIfAbsent(configuration, mine);
    if (outcome == null) {
      outcome = mine;
      try {
        mine.complete(run(configuration, seed().copy(configuration)));
      } catch (Throwable t) {
        mine.completeExceptionally(t);
      }
    }
    try {
      return outcome.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw (Error) e.getCause();
    }
  }

  private static Map<String, String> run(Configuration configuration, Copy copy) throws Exception {
    return switch (configuration) {
      case CLI_DEFAULT -> cli(copy, Map.of(), true);
      case CLI_IN_MEMORY_CATALOG ->
          cli(copy, Map.of("WEAVER_JAVA_OPTS", "-Dweaver.metastore=memory"), false);
      case NOTEBOOK_FIRST_SQL -> notebook(copy, "sql", BundleSubmit.EXTENSIONS, false);
      case NOTEBOOK_FIRST_SPARK_TABLE -> notebook(copy, "table", BundleSubmit.EXTENSIONS, false);
      case NOTEBOOK_DELTA_EXTENSION_FIRST -> notebook(copy, "sql", DELTA_FIRST, false);
      case NOTEBOOK_HIVE_CATALOG -> notebook(copy, "sql", BundleSubmit.EXTENSIONS, true);
      case NOTEBOOK_HIVE_CATALOG_DELTA_EXTENSION_FIRST -> notebook(copy, "sql", DELTA_FIRST, true);
      case SPARK_SUBMIT_BUNDLE -> submit(copy);
      case SPARK_CONNECT -> connect(copy);
    };
  }

  static final String DELTA_FIRST =
      "io.delta.sql.DeltaSparkSessionExtension,io.weaver.sql.WeaverSparkSessionExtensions";

  /**
   * The probes of the CLI, SQL only as {@code bin/weaver sql} users have it: one process loads the
   * derived Table and reads (the short name after {@code USE Shop.Sales}); with {@code dml}, one
   * more appends and one tries the unguarded UPDATE.
   */
  private static Map<String, String> cli(Copy copy, Map<String, String> env, boolean dml)
      throws Exception {
    String customer = "Shop.Sales.Customer";
    String select =
        String.join(
            ", ",
            "SELECT (SELECT count(*) FROM " + customer + ") AS first",
            "(SELECT count(*) FROM " + customer + ") AS live_sql",
            "(SELECT count(*) FROM Customer) AS short_name",
            "(SELECT count(*) FROM "
                + customer
                + " VERSION AS OF "
                + copy.customerVersion()
                + ") AS time_travel",
            "(SELECT count(*) FROM "
                + customer
                + " WITH ('includeDeleted' = 'true'))"
                + " AS all_sql_options",
            "(SELECT count(*) FROM spark_catalog.delta.`"
                + copy.customerPath()
                + "`) AS all_by_path",
            "(SELECT count(*) FROM Shop.Sales.Visit) AS incremental",
            "(SELECT sum(n) FROM Report.Sales.TierCount) AS derived");
    BinWeaverCheckTest.Result read =
        copy.weaver(
            env,
            "sql",
            "--format",
            "json",
            "LOAD WEAVER TABLE Report.Sales.TierCount; USE Shop.Sales; " + select);
    if (read.exit() != 0) {
      fail("bin/weaver sql failed in " + copy.dir() + ":\n" + read.out() + read.err());
    }
    Map<String, String> probes = new LinkedHashMap<>(jsonRow(read.out()));
    // The load's own row is not the last statement's; its effect is the derived probe.
    probes.put("derived_load", "succeeded");
    if (dml) {
      BinWeaverCheckTest.Result append =
          copy.weaver(
              env,
              "sql",
              "--format",
              "json",
              "INSERT INTO Shop.Sales.Visit VALUES (100, 1); SELECT count(*) AS append FROM"
                  + " Shop.Sales.Visit");
      probes.put(
          "append",
          append.exit() == 0 ? jsonRow(append.out()).get("append") : "error: " + append.err());
      BinWeaverCheckTest.Result guard =
          copy.weaver(env, "sql", "UPDATE Shop.Sales.Customer SET tier = 'lead'");
      probes.put("guard", guard.exit() == 0 ? "allowed" : "error: " + guard.err().strip());
    }
    return probes;
  }

  /** The one row of {@code bin/weaver sql --format json}'s output, all values as text. */
  private static Map<String, String> jsonRow(String out) {
    Matcher row = Pattern.compile("\"rows\":\\[\\{(.*)}]").matcher(out);
    assertTrue(row.find(), out);
    Map<String, String> values = new LinkedHashMap<>();
    for (String pair : row.group(1).split(",")) {
      String[] kv = pair.split(":", 2);
      values.put(kv[0].replace("\"", ""), kv[1].replace("\"", ""));
    }
    return values;
  }

  /** A fresh PySpark process that builds its own session: the README's settings and the jars. */
  private static Map<String, String> notebook(
      Copy copy, String first, String extensions, boolean hive) throws Exception {
    BundleSubmit submit = BundleSubmit.prepare(copy.dir());
    Map<String, String> confs = new LinkedHashMap<>();
    confs.put("spark.master", "local[2]");
    confs.put("spark.jars", jars(submit));
    confs.putAll(readmeSettings(copy, extensions));
    confs.putAll(small(copy));
    if (hive) {
      confs.put("spark.sql.catalogImplementation", "hive");
      confs.put(
          "spark.hadoop.javax.jdo.option.ConnectionURL",
          "jdbc:derby:;databaseName=" + copy.dir().resolve("metastore_db") + ";create=true");
    }
    return python(submit, copy, Map.of("mode", "classic", "first", first, "confs", confs));
  }

  /** {@code spark-submit --packages} with the bundle as shipped ({@link BundleSubmit}). */
  private static Map<String, String> submit(Copy copy) throws Exception {
    BundleSubmit submit = BundleSubmit.prepare(copy.dir());
    writeArgs(copy, Map.of("mode", "submit", "first", "sql"));
    BundleSubmit.Result result =
        submit.runPythonApp(
            Files.readString(resource("contract_app.py")),
            readmeSettings(copy, BundleSubmit.EXTENSIONS));
    Map<String, String> probes = parseProbes(result.out());
    if (probes.isEmpty()) {
      fail("spark-submit printed no probe: " + result.describe());
    }
    return probes;
  }

  /**
   * A Spark Connect server started with the bundle and the README's settings as its Spark
   * properties (as a cluster's), and the app as its client.
   */
  private static Map<String, String> connect(Copy copy) throws Exception {
    BundleSubmit submit = BundleSubmit.prepare(copy.dir());
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Map<String, String> confs = new LinkedHashMap<>(readmeSettings(copy, BundleSubmit.EXTENSIONS));
    confs.putAll(small(copy));
    confs.put("spark.connect.grpc.binding.address", "127.0.0.1");
    confs.put("spark.connect.grpc.binding.port", Integer.toString(port));
    List<String> command = new ArrayList<>();
    command.add(submit.sparkHome.resolve("bin/spark-submit").toString());
    command.addAll(List.of("--class", "org.apache.spark.sql.connect.service.SparkConnectServer"));
    command.addAll(List.of("--master", "local[2]", "--driver-memory", "1g"));
    command.addAll(List.of("--jars", jars(submit)));
    confs.forEach((k, v) -> command.addAll(List.of("--conf", k + "=" + v)));
    command.add("spark-internal");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(copy.dir().toFile())
            .redirectErrorStream(true)
            .redirectOutput(copy.dir().resolve("server.log").toFile());
    environment(builder, submit);
    Process server = builder.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
      while (true) {
        if (!server.isAlive()) {
          fail(
              "the Spark Connect server exited:\n"
                  + Files.readString(copy.dir().resolve("server.log")));
        }
        try (Socket ignored = new Socket("127.0.0.1", port)) {
          break;
        } catch (IOException notYet) {
          if (System.nanoTime() > deadline) {
            fail("the Spark Connect server did not listen in 4 minutes");
          }
          Thread.sleep(500);
        }
      }
      return python(
          submit,
          copy,
          Map.of("mode", "connect", "first", "sql", "remote", "sc://127.0.0.1:" + port));
    } finally {
      server.descendants().forEach(ProcessHandle::destroy);
      server.destroy();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.descendants().forEach(ProcessHandle::destroyForcibly);
        server.destroyForcibly();
      }
    }
  }

  static String jars(BundleSubmit submit) {
    return Stream.concat(Stream.of(submit.bundle), submit.deltaJars.stream())
        .map(Path::toString)
        .collect(Collectors.joining(","));
  }

  static void environment(ProcessBuilder builder, BundleSubmit submit) {
    builder.environment().put("JAVA_HOME", BundleSubmit.javaHome());
    builder.environment().put("SPARK_HOME", submit.sparkHome.toString());
    builder.environment().put("PYSPARK_PYTHON", submit.python);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    builder.environment().remove("PYTHONPATH");
    builder.environment().remove("SPARK_CONF_DIR");
  }

  /** Exactly the README's notebook settings (open-source Spark's three), for this copy. */
  static Map<String, String> readmeSettings(Copy copy, String extensions) {
    Map<String, String> confs = new LinkedHashMap<>();
    confs.put("spark.sql.extensions", extensions);
    confs.put("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    confs.put("spark.weaver.workspace", copy.workspace().toString());
    confs.put("spark.weaver.lakehouse", copy.lakehouse().toString());
    return confs;
  }

  /** What keeps a test process small and quiet; no setting of the contract. */
  static Map<String, String> small(Copy copy) {
    Map<String, String> confs = new LinkedHashMap<>();
    confs.put("spark.ui.enabled", "false");
    confs.put("spark.ui.showConsoleProgress", "false");
    confs.put("spark.sql.shuffle.partitions", "2");
    confs.put("spark.databricks.delta.snapshotPartitions", "1");
    confs.put("spark.sql.warehouse.dir", copy.dir().resolve("warehouse").toString());
    // The throughput collector, as the test JVMs' (docs/performance.md, "Test JVMs").
    confs.put("spark.driver.extraJavaOptions", "-XX:+UseParallelGC");
    return confs;
  }

  /** Runs the app in a Python process of its own with {@code args}; its probes. */
  private static Map<String, String> python(
      BundleSubmit submit, Copy copy, Map<String, Object> args) throws Exception {
    Path argsFile = writeArgs(copy, args);
    Path app = copy.dir().resolve("contract_app.py");
    Files.copy(resource("contract_app.py"), app);
    ProcessBuilder builder =
        new ProcessBuilder(submit.python, app.toString(), argsFile.toString())
            .directory(copy.dir().toFile())
            .redirectOutput(copy.dir().resolve("app.out").toFile())
            .redirectError(copy.dir().resolve("app.err").toFile());
    environment(builder, submit);
    Process process = builder.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("the contract app did not finish in 10 minutes: " + copy.dir());
    }
    String out = Files.readString(copy.dir().resolve("app.out"));
    Map<String, String> probes = parseProbes(out);
    if (probes.isEmpty()) {
      fail(
          "the contract app printed no probe (exit "
              + process.exitValue()
              + "):\n"
              + out
              + Files.readString(copy.dir().resolve("app.err")));
    }
    return probes;
  }

  /** {@code contract_args.json} in the copy's folder, where the app looks when given no path. */
  private static Path writeArgs(Copy copy, Map<String, Object> args) throws IOException {
    Map<String, Object> all = new LinkedHashMap<>(args);
    all.put("customer_path", copy.customerPath().toString());
    all.put("customer_version", copy.customerVersion());
    Path file = copy.dir().resolve("contract_args.json");
    Files.writeString(file, json(all), StandardCharsets.UTF_8);
    return file;
  }

  /** JSON of strings, numbers and maps of them (all this app's arguments are). */
  static String json(Object value) {
    if (value instanceof Map<?, ?> map) {
      return map.entrySet().stream()
          .map(e -> json(e.getKey().toString()) + ": " + json(e.getValue()))
          .collect(Collectors.joining(", ", "{", "}"));
    }
    if (value instanceof Number) {
      return value.toString();
    }
    String text = value.toString();
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  static Map<String, String> parseProbes(String out) {
    Map<String, String> probes = new LinkedHashMap<>();
    out.lines()
        .filter(l -> l.startsWith("probe "))
        .forEach(
            l -> {
              String[] parts = l.substring("probe ".length()).split(" ", 2);
              probes.put(parts[0], parts.length > 1 ? parts[1] : "");
            });
    return probes;
  }

  static Path resource(String name) {
    return BinWeaverCheckTest.projectRoot()
        .resolve("integration-tests/src/test/resources/session-contract")
        .resolve(name);
  }

  // ---- the prepared lakehouse ----

  private static synchronized Seed seed() throws Exception {
    if (seedFailure != null) {
      throw new IllegalStateException(
          "the lakehouse for the contract could not be prepared", seedFailure);
    }
    if (seed == null) {
      try {
        seed = Seed.prepare();
      } catch (Exception | AssertionError e) {
        seedFailure = e;
        throw e;
      }
    }
    return seed;
  }

  /** The workspace and lakehouse after the two deliveries, made once per test JVM by the CLI. */
  record Seed(Path dir) {
    static Seed prepare() throws Exception {
      Path dir = Files.createTempDirectory("weaver-session-contract");
      Path workspace = dir.resolve("workspace");
      copyTree(resource("workspace"), workspace);
      Path lakehouse = dir.resolve("lakehouse");
      Copy seed = new Copy(dir, workspace, lakehouse, null, 0);
      BinWeaverCheckTest.Result first = seed.weaver(Map.of(), "run");
      assertEquals(0, first.exit(), first.out() + first.err());
      // The second delivery: customer 10 is gone; visit 2 is cancelled in a new file.
      Path files = lakehouse.resolve("Shop/Files/landing");
      Files.writeString(
          files.resolve("customers/customers.csv"),
          "id,tier\n1,gold\n2,gold\n3,gold\n4,silver\n5,silver\n6,silver\n7,silver\n8,bronze\n"
              + "9,bronze\n");
      Files.writeString(
          files.resolve("visits/second.json"),
          "{\"visit_id\": 2, \"customer_id\": 2, \"cancelled\": true}\n");
      // A load, not a run: nothing was declared anew, so Check and Build would find nothing to do.
      BinWeaverCheckTest.Result second = seed.weaver(Map.of(), "load", "--item", "Shop");
      assertEquals(0, second.exit(), second.out() + second.err());
      assertTrue(second.out().contains("-1"), "the second run soft-deletes: " + second.out());
      return new Seed(dir);
    }

    /** A copy of the seed for one configuration (its metastore included). */
    Copy copy(Configuration configuration) throws IOException {
      Path target = Files.createTempDirectory("weaver-contract-" + configuration.name());
      copyTree(dir.resolve("workspace"), target.resolve("workspace"));
      copyTree(dir.resolve("lakehouse"), target.resolve("lakehouse"));
      Files.deleteIfExists(target.resolve("lakehouse/.spark-metastore/weaver.lock"));
      Path customer = target.resolve("lakehouse/Shop/Tables/Sales/Customer");
      long version;
      try (Stream<Path> log = Files.list(customer.resolve("_delta_log"))) {
        version =
            log.map(p -> p.getFileName().toString())
                    .filter(n -> n.matches("\\d{20}\\.json"))
                    .count()
                - 1;
      }
      return new Copy(
          target, target.resolve("workspace"), target.resolve("lakehouse"), customer, version);
    }
  }

  /** One configuration's workspace and lakehouse. */
  record Copy(Path dir, Path workspace, Path lakehouse, Path customerPath, long customerVersion) {
    BinWeaverCheckTest.Result weaver(Map<String, String> env, String... args)
        throws IOException, InterruptedException {
      List<String> all = new ArrayList<>(List.of(args));
      all.addAll(
          1, List.of("--workspace", workspace.toString(), "--lakehouse", lakehouse.toString()));
      return BinWeaverCheckTest.weaver(env, all.toArray(String[]::new));
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.sorted(Comparator.naturalOrder()).toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
