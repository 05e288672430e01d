package io.weaver.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.when;

import io.delta.tables.DeltaTable;
import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.bench.Workload.Delivery;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.LoadPlan;
import io.weaver.load.StagingProvider;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.ManagedColumns;
import io.weaver.workspace.TableId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Benchmark, not a test: a snapshot load through Weaver's engine (on each of its write paths)
 * against a hand-written hash-diff merge, the unconditional {@code MERGE … UPDATE SET * … INSERT *
 * … DELETE} most tools generate, and the lower bound (one diff job that writes nothing), on copies
 * of the same keyed Delta target, for each delivery of a {@link Workload}: the synthetic one
 * (change fractions) or TPC-H's lineitem refreshes. Run through {@code benchmarks/run}.
 *
 * <p>Arguments: {@code [--workload synthetic|tpch] [--rows N[,N…]] [--fractions 0,0.001,0.01,0.1]
 * [--scale S --tpch-data DIR] [--runs R] [--format text|json] [--work DIR] [--no-warmup]}. Logs go
 * to stderr; the table or the JSON document to stdout.
 */
public final class LoadBenchmark {
  static final String ITEM = "Bench";
  static final Instant BASE_TS = Instant.parse("2024-01-01T00:00:00Z");
  static final Instant LIVE = Instant.parse("9999-12-31T00:00:00Z");

  /**
   * The session conf choosing the engine's write path: {@code auto}, {@code direct}, {@code merge}.
   */
  static final String WRITER_CONF = "spark.weaver.load.writer";

  /** The write path of the {@code weaver} figures (the JSON's {@code approach_path}). */
  static final String WEAVER_PATH = "direct";

  static final String MERGE_PATH = "merge";

  private final SparkSession spark;
  private final Path work;
  private final Path workspace;
  private final Path lake;
  private final WeaverWorkspace weaver;
  private final JobRecorder jobs = new JobRecorder();
  private final DriverMemory memory = new DriverMemory();
  private int tables;

  LoadBenchmark(SparkSession spark, Path work) {
    this.spark = spark;
    this.work = work;
    this.workspace = work.resolve("ws");
    this.lake = work.resolve("lake");
    this.weaver = new WeaverWorkspace(spark, workspace, lake.toString(), m -> {});
    spark.sparkContext().addSparkListener(jobs);
  }

  public static void main(String[] args) throws Exception {
    List<Long> sizes = List.of(1_000_000L);
    int runs = 1;
    boolean json = false;
    boolean warmup = true;
    String workloadName = "synthetic";
    double scale = 1;
    Path tpchData = null;
    List<Double> fractions = List.of(0.0, 0.001, 0.01, 0.1);
    Path work = null;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--workload" -> workloadName = args[++i];
          case "--rows" -> sizes = sizes(args[++i]);
          case "--scale" -> scale = Double.parseDouble(args[++i]);
          case "--tpch-data" -> tpchData = Path.of(args[++i]);
          case "--runs" -> runs = Integer.parseInt(args[++i]);
          case "--format" -> json = args[++i].equals("json");
          case "--fractions" -> {
            fractions = new ArrayList<>();
            for (String f : args[++i].split(",")) {
              fractions.add(Double.parseDouble(f));
            }
          }
          case "--work" -> work = Path.of(args[++i]);
          case "--no-warmup" -> warmup = false;
          default -> usage();
        }
      }
    } catch (IllegalArgumentException e) {
      System.err.println("LoadBenchmark: " + e.getMessage());
      System.exit(2);
    }
    if (!workloadName.equals("synthetic") && !(workloadName.equals("tpch") && tpchData != null)) {
      usage();
    }
    if (workloadName.equals("tpch") && sizes.size() > 1) {
      System.err.println(
          "LoadBenchmark: --rows with several sizes is for the synthetic workload; TPC-H's size is"
              + " --scale");
      System.exit(2);
    }
    if (work == null) {
      work = Files.createTempDirectory("weaver-bench");
    }
    Path lakeRoot = work.resolve("lake");
    // Its own session, not SharedSpark: a benchmark measures the embedded session on every core.
    SparkSession spark = BenchSession.create(lakeRoot, List.of(ITEM));
    spark.sparkContext().setLogLevel("WARN");
    LoadBenchmark bench = new LoadBenchmark(spark, work);
    try {
      List<Workload> workloads = new ArrayList<>();
      if (workloadName.equals("tpch")) {
        workloads.add(new TpchWorkload(spark, tpchData, scale));
      } else {
        for (long n : sizes) {
          workloads.add(new SyntheticWorkload(spark, n, fractions));
        }
      }
      if (warmup) {
        // The synthetic workload warms both: what is warmed is the engine's code (JIT, code
        // generation), not the data.
        long small = Math.min(workloads.get(0).rows(), 20_000L);
        log("warm-up at " + small + " rows (JIT, code generation; not reported)");
        bench.measure(new SyntheticWorkload(spark, small, List.of(0.01)), 1, "w");
      }
      // Sizes in the order given, in this one JVM (the marginal cost compares their medians).
      List<Report.Result> results = new ArrayList<>();
      for (int i = 0; i < workloads.size(); i++) {
        Workload workload = workloads.get(i);
        results.add(new Report.Result(workload, bench.measure(workload, runs, "m" + i)));
      }
      System.out.println(json ? Report.json(results, runs) : Report.text(results, runs));
    } finally {
      spark.stop();
    }
  }

  /**
   * The target sizes of {@code --rows}: one, or several separated by commas ({@code
   * 1000000,10000000}), each measured in turn; {@code _} groups digits ({@code 1_000_000}).
   */
  static List<Long> sizes(String arg) {
    List<Long> sizes = new ArrayList<>();
    for (String part : arg.split(",", -1)) {
      long n;
      try {
        n = Long.parseLong(part.strip().replace("_", ""));
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n <= 0) {
        throw new IllegalArgumentException(
            "--rows '"
                + arg
                + "': each size must be a positive number of rows; commas separate sizes"
                + " (--rows 1000000,10000000), so group digits with _ (1_000_000)");
      }
      sizes.add(n);
    }
    return sizes;
  }

  private static void usage() {
    System.err.println(
        "usage: LoadBenchmark [--workload synthetic|tpch] [--rows N[,N…]] [--fractions f,f,…]"
            + " [--scale S --tpch-data DIR] [--runs R] [--format text|json] [--work DIR]"
            + " [--no-warmup]");
    System.exit(2);
  }

  static void log(String message) {
    System.err.printf(Locale.ROOT, "[bench %tT] %s%n", System.currentTimeMillis(), message);
  }

  // ---------------------------------------------------------------------------------- tables

  /** Writes the Table's declaration into the generated workspace: the shape's key and body. */
  private String declare(String object, TableShape shape) {
    return declare(object, shape, "");
  }

  /**
   * Writes the Table's declaration with {@code expectations}, an {@code Expectations:} block of the
   * header ({@link TableShape#expectationsBlock}) or empty.
   */
  private String declare(String object, TableShape shape, String expectations) {
    String header =
        "/*\nTable ID: B."
            + object
            + "\nDescription: Benchmark target.\n"
            + shape.primaryKeyLine()
            + "\n"
            + expectations
            + "Delete percentage threshold: 100\nUpdate percentage threshold: 100\n"
            + "Stability row threshold: 0\n*/\n";
    Path file = workspace.resolve("Lakehouse/" + ITEM + "/Tables/B." + object + ".sql");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, header + shape.declarationBody());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ITEM + ".B." + object;
  }

  private String tablePath(String object) {
    return weaver.layout().tablePath(ITEM, TableId.parse("B." + object).orElseThrow());
  }

  /** The three pristine targets every case copies, and the shape they share. */
  record Masters(TableShape shape, String weaver, String plain, String hand) {}

  Masters prepare(Workload workload, String tag) {
    TableShape shape = workload.shape();
    String object = "Master_" + tag;
    String name = declare(object, shape);
    var built = weaver.build(Scope.table(name), false);
    if (!built.stream().allMatch(o -> o.action().equals("created"))) {
      throw new IllegalStateException("build of the master target failed: " + built);
    }
    String weaverPath = tablePath(object);
    Dataset<Row> rows = workload.base();
    List<Column> managed = TableShape.columns(shape.columns());
    managed.add(lit(BASE_TS).as(ManagedColumns.INSERT_TIME));
    managed.add(lit(BASE_TS).as(ManagedColumns.UPDATE_TIME));
    managed.add(lit(LIVE).as(ManagedColumns.DELETE_TIME));
    managed.add(shape.weaverSignature().as(ManagedColumns.SIGNATURE));
    Dataset<Row> full = rows.select(managed.toArray(new Column[0]));
    String[] order =
        Stream.of(DeltaTable.forPath(spark, weaverPath).toDF().columns())
            .map(TableShape::quote)
            .toArray(String[]::new);
    full.selectExpr(order).write().format("delta").mode("append").save(weaverPath);

    String plain = work.resolve("masters/plain_" + tag).toString();
    String hand = work.resolve("masters/hand_" + tag).toString();
    String dv = "spark.databricks.delta.properties.defaults.enableDeletionVectors";
    spark.conf().set(dv, "true");
    try {
      rows.write().format("delta").save(plain);
      rows.withColumn("sig", shape.hashSignature()).write().format("delta").save(hand);
    } finally {
      spark.conf().unset(dv);
    }
    return new Masters(shape, weaverPath, plain, hand);
  }

  /**
   * Brings Delta's cached snapshot of every catalogue table up to date, untimed, before a timed
   * Weaver load or plan. A load's bookkeeping commits leave the catalogue's latest snapshot
   * uncomputed, and the next call that reads the catalogue pays its reconstruction (about half a
   * second of small jobs): without this, whichever Weaver approach ran right after another Weaver
   * load paid for it — always the same ones, since the order only rotates — and the plain load,
   * which follows the plan (a reader), never did.
   */
  private void settleCatalogue() {
    Catalogue catalogue = new Catalogue(spark, weaver.layout(), ITEM);
    for (CatalogueTable table : CatalogueTable.values()) {
      if (catalogue.exists(table)) {
        spark.read().format("delta").load(catalogue.path(table)).inputFiles();
      }
    }
  }

  static void copy(String from, Path to) {
    Path source = Path.of(from);
    try (Stream<Path> files = Files.walk(source)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void delete(Path folder) {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------------------------- cases

  /**
   * One measurement of one approach. {@code cpuSeconds} is the CPU time this whole JVM (driver,
   * local executors, JIT and GC) used during the call, and {@code taskCpuSeconds} that of its Spark
   * tasks alone: on a machine another process shares, they move far less than wall time, so a small
   * difference between two approaches shows there when wall times are too noisy to.
   */
  record Measure(
      double seconds,
      int jobs,
      double busySeconds,
      long inputBytes,
      Map<String, Long> metrics,
      long shuffleBytes,
      DriverMemory.Reading heap,
      double cpuSeconds,
      double taskCpuSeconds) {
    long metric(String name) {
      return metrics.getOrDefault(name, 0L);
    }
  }

  /** Inserted, updated and deleted rows as one approach found them. */
  record Counts(long inserted, long updated, long deleted) {}

  /**
   * The runs of every approach for one delivery. {@code weaver} is the direct write path; it is
   * empty, with {@code weaverError} saying why, when the engine has no direct writer. {@code
   * weaverExpectations} is the same load of a Table that declares the shape's expectations (empty
   * when the shape has none, or without a direct writer).
   */
  record Case(
      long rows,
      Delivery delivery,
      List<Measure> weaver,
      List<Measure> weaverExpectations,
      List<Measure> weaverMerge,
      List<Measure> hand,
      List<Measure> unconditional,
      List<Measure> lower,
      List<Measure> plan,
      Map<String, Long> weaverCounts,
      Map<String, Long> weaverExpectationsCounts,
      Map<String, Long> weaverMergeCounts,
      List<String> weaverJobs,
      String weaverError) {
    double fraction() {
      return delivery.fraction();
    }
  }

  /** What the approaches of one run found, checked against each other once all have run. */
  static final class RunCounts {
    final Map<String, Counts> found = new LinkedHashMap<>();
    Map<String, Long> weaver = Map.of();
    Map<String, Long> weaverExpectations = Map.of();
    Map<String, Long> weaverMerge = Map.of();
    final List<String> weaverJobs = new ArrayList<>();

    /**
     * Each Weaver load's counts must be the lower bound's diff, and the plan's the loads'; the
     * benchmark stops (non-zero exit) otherwise, since its figures would compare unequal work. The
     * load with expectations must also leave exactly the plain load's rows unchanged and quarantine
     * none: the shape's expectations hold on every row, so both loads write the same rows.
     */
    void verify(String label) {
      if (!weaverExpectations.isEmpty() && !weaver.isEmpty()) {
        Map<String, Long> plain = new LinkedHashMap<>(weaver);
        plain.remove("check_ms");
        plain.put("quarantined", 0L);
        plain.put("violating", 0L);
        Map<String, Long> expected = new LinkedHashMap<>(weaverExpectations);
        expected.remove("check_ms");
        if (!expected.equals(plain)) {
          throw new IllegalStateException(
              label
                  + ": the weaver load with expectations found "
                  + expected
                  + ", the plain weaver load "
                  + plain
                  + " (its expectations should hold on every row)");
        }
      }
      Counts expected = found.get("lower bound");
      for (var e : found.entrySet()) {
        if (expected != null && !e.getValue().equals(expected)) {
          throw new IllegalStateException(
              label
                  + ": the "
                  + e.getKey()
                  + " found "
                  + e.getValue()
                  + ", the lower bound's diff "
                  + expected
                  + " ("
                  + found
                  + ")");
        }
      }
    }
  }

  List<Case> measure(Workload workload, int runs, String tag) {
    long start = System.nanoTime();
    Masters masters = prepare(workload, tag);
    log(
        String.format(
            Locale.ROOT,
            "%s targets of %d rows prepared in %.1f s (%d files per table)",
            workload.name(),
            workload.rows(),
            (System.nanoTime() - start) / 1e9,
            workload.files()));
    List<Case> cases = new ArrayList<>();
    // Once the engine says it has no direct writer, later loads would say it again.
    String directError = null;
    for (Delivery d : workload.deliveries()) {
      String stagingPath = work.resolve("staging/" + tag + "_" + d.label()).toString();
      d.staging().write().format("parquet").save(stagingPath);
      Supplier<Dataset<Row>> staging = () -> spark.read().parquet(stagingPath);
      List<Measure> w = new ArrayList<>();
      List<Measure> we = new ArrayList<>();
      List<Measure> wm = new ArrayList<>();
      List<Measure> h = new ArrayList<>();
      List<Measure> u = new ArrayList<>();
      List<Measure> l = new ArrayList<>();
      List<Measure> p = new ArrayList<>();
      RunCounts last = new RunCounts();
      for (int r = 0; r < runs; r++) {
        RunCounts found = new RunCounts();
        String[] error = {directError};
        // Rotate the order so no approach always runs first (cold caches) or last.
        List<Runnable> order = new ArrayList<>();
        order.add(
            () -> {
              if (error[0] != null) {
                log("  weaver (direct) skipped: " + error[0]);
                return;
              }
              try {
                w.add(weaverLoad(masters, staging, tag, d.steady(), WEAVER_PATH, false, found));
              } catch (DirectWriterUnavailable e) {
                error[0] = e.getMessage();
                log("  weaver (direct) unavailable: " + e.getMessage());
              }
            });
        if (!masters.shape().expectations().isEmpty()) {
          order.add(
              () -> {
                if (error[0] != null) {
                  log("  weaver with expectations skipped: " + error[0]);
                  return;
                }
                try {
                  we.add(weaverLoad(masters, staging, tag, d.steady(), WEAVER_PATH, true, found));
                } catch (DirectWriterUnavailable e) {
                  error[0] = e.getMessage();
                  log("  weaver with expectations: no direct writer: " + e.getMessage());
                }
              });
        }
        order.add(
            () -> wm.add(weaverLoad(masters, staging, tag, d.steady(), MERGE_PATH, false, found)));
        order.add(() -> h.add(handWritten(masters, staging, tag)));
        order.add(() -> u.add(unconditional(masters, staging, tag)));
        order.add(() -> l.add(lowerBound(masters, staging, tag, found)));
        order.add(() -> p.add(weaverPlan(masters, staging, tag, found)));
        for (int i = 0; i < order.size(); i++) {
          order.get((i + r) % order.size()).run();
        }
        found.verify(workload.name() + " " + d.label() + " run " + (r + 1));
        directError = error[0];
        last = found;
      }
      log(
          String.format(
              Locale.ROOT,
              "%s: weaver %s s, with expectations %s s, weaver (merge) %.2f s, hand-written %.2f"
                  + " s, unconditional %.2f s, lower bound %.2f s, plan %.2f s; counts %s",
              d.label(),
              w.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", median(w)),
              we.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", median(we)),
              median(wm),
              median(h),
              median(u),
              median(l),
              median(p),
              last.found));
      cases.add(
          new Case(
              workload.rows(),
              d,
              w,
              we,
              wm,
              h,
              u,
              l,
              p,
              last.weaver,
              last.weaverExpectations,
              last.weaverMerge,
              last.weaverJobs,
              directError));
      delete(Path.of(stagingPath));
    }
    // The next size (--rows a,b) or the measured round after the warm-up prepares its own.
    delete(Path.of(masters.weaver()));
    delete(Path.of(masters.plain()));
    delete(Path.of(masters.hand()));
    return cases;
  }

  static double median(List<Measure> measures) {
    List<Double> s = measures.stream().map(Measure::seconds).sorted().toList();
    int m = s.size() / 2;
    return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
  }

  private Measure timed(String label, String path, Runnable action) {
    long before = DeltaTable.forPath(spark, path).history(1).first().getLong(0);
    jobs.reset();
    memory.reset();
    long cpuStart = processCpuNanos();
    long start = System.nanoTime();
    action.run();
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = (processCpuNanos() - cpuStart) / 1e9;
    DriverMemory.Reading heap = memory.read();
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (Exception e) {
      log("  (listener bus not drained: " + e + ")");
    }
    JobRecorder.Snapshot snapshot = jobs.snapshot();
    Row last = DeltaTable.forPath(spark, path).history(1).first();
    Map<String, Long> metrics = new LinkedHashMap<>();
    if (last.getLong(0) != before) {
      Map<String, String> m = last.getJavaMap(last.fieldIndex("operationMetrics"));
      m.forEach(
          (k, v) -> {
            try {
              metrics.put(k, Long.parseLong(v));
            } catch (NumberFormatException ignored) {
              // not a count
            }
          });
      metrics.put("committed", 1L);
    } else {
      metrics.put("committed", 0L);
    }
    log(
        String.format(
            Locale.ROOT,
            "  %-13s %7.2f s, CPU %.2f s (tasks %.2f s), %2d jobs (Spark busy %.2f s), %,d input"
                + " bytes, %,d shuffle bytes written, driver heap peak %,d MB (after GC %s), commit"
                + " %s",
            label,
            seconds,
            cpu,
            snapshot.taskCpuNanos() / 1e9,
            snapshot.jobs(),
            snapshot.busyMillis() / 1e3,
            snapshot.inputBytes(),
            snapshot.shuffleBytes(),
            heap.peakBytes() >> 20,
            heap.afterGcBytes() < 0 ? "no GC" : (heap.afterGcBytes() >> 20) + " MB",
            metrics.get("committed") == 1
                ? "files+"
                    + metrics.get("numTargetFilesAdded")
                    + " bytes+"
                    + metrics.get("numTargetBytesAdded")
                    + " copied "
                    + metrics.get("numTargetRowsCopied")
                : "none"));
    return new Measure(
        seconds,
        snapshot.jobs(),
        snapshot.busyMillis() / 1e3,
        snapshot.inputBytes(),
        metrics,
        snapshot.shuffleBytes(),
        heap,
        cpu,
        snapshot.taskCpuNanos() / 1e9);
  }

  /** CPU time of this JVM's threads so far (driver and local executors alike). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static StagingProvider provider(Supplier<Dataset<Row>> staging) {
    return (t, c) -> new StagingProvider.Staging(staging.get(), Optional.empty(), Optional.empty());
  }

  /** The engine refused the direct write path: the case records no direct figures, and goes on. */
  static final class DirectWriterUnavailable extends RuntimeException {
    DirectWriterUnavailable(String message) {
      super(message);
    }
  }

  /**
   * Whether a failure is the engine saying its direct writer cannot serve this load (an engine
   * without the second write path, or a table it cannot write: "spark.weaver.load.writer=direct,
   * but the direct writer cannot write this table (…)"), as opposed to a failing load.
   */
  static boolean saysDirectUnavailable(String message) {
    String m = message == null ? "" : message.toLowerCase(Locale.ROOT);
    boolean namesDirect = m.contains("direct writer") || m.contains("=direct");
    return namesDirect
        && (m.contains("unavailable")
            || m.contains("not available")
            || m.contains("cannot write")
            || m.contains("not supported"));
  }

  private static String messages(Throwable t) {
    StringBuilder out = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      out.append(c.getMessage()).append(" | ");
    }
    return out.toString();
  }

  /**
   * Runs {@code action} with the engine's write path set to {@code path} on the session the load
   * uses, and the conf restored afterwards so no other approach sees it.
   */
  private <T> T onWritePath(String path, Supplier<T> action) {
    String previous = spark.conf().contains(WRITER_CONF) ? spark.conf().get(WRITER_CONF) : null;
    spark.conf().set(WRITER_CONF, path);
    try {
      return action.get();
    } finally {
      if (previous == null) {
        spark.conf().unset(WRITER_CONF);
      } else {
        spark.conf().set(WRITER_CONF, previous);
      }
    }
  }

  /** One Weaver load on the given write path; an unavailable direct writer is reported apart. */
  private LoadResult load(String name, Supplier<Dataset<Row>> staging, String path) {
    List<LoadResult> results;
    try {
      results = onWritePath(path, () -> weaver.loadWith(name, false, provider(staging)));
    } catch (RuntimeException e) {
      if (path.equals(WEAVER_PATH) && saysDirectUnavailable(messages(e))) {
        throw new DirectWriterUnavailable(messages(e));
      }
      throw e;
    }
    LoadResult r = results.get(results.size() - 1);
    if (r.status() != LoadStatus.SUCCEEDED) {
      if (path.equals(WEAVER_PATH) && saysDirectUnavailable(r.message())) {
        throw new DirectWriterUnavailable(r.message());
      }
      throw new IllegalStateException(
          "the Weaver load (" + path + " writer) did not succeed: " + r);
    }
    return r;
  }

  /**
   * One timed Weaver load on a fresh copy, on write path {@code path} ({@link #WRITER_CONF}). With
   * {@code steady}, the load models a Table in its steady state of finding nothing to do: one
   * untimed load with the same staging runs first (its history says it changed nothing, so the
   * timed load checks checksums first, as every later load of such a Table does), and Delta's
   * cached snapshot of the copy is dropped so the timed load starts as cold as every other
   * approach. Without it, the Table has no load history (as a Table whose loads keep changing rows
   * behaves: the full diff runs directly). With {@code expect}, the Table declares the shape's
   * expectations ({@link TableShape#expectations}): the same load, its rules counted in the diff's
   * pass.
   */
  private Measure weaverLoad(
      Masters masters,
      Supplier<Dataset<Row>> staging,
      String tag,
      boolean steady,
      String writePath,
      boolean expect,
      RunCounts found) {
    boolean direct = writePath.equals(WEAVER_PATH);
    String object = (expect ? "WE_" : direct ? "W_" : "WM_") + tag + "_" + (++tables);
    String name =
        declare(object, masters.shape(), expect ? masters.shape().expectationsBlock() : "");
    String path = tablePath(object);
    copy(masters.weaver(), Path.of(path));
    try {
      if (steady) {
        LoadResult e = load(name, staging, writePath);
        if (e.deltaVersion() < 0) {
          throw new IllegalStateException("the untimed earlier load did not succeed: " + e);
        }
        org.apache.spark.sql.delta.DeltaLog.invalidateCache(
            spark, new org.apache.hadoop.fs.Path(path));
      }
      settleCatalogue();
      LoadResult[] result = new LoadResult[1];
      String label = expect ? "weaver expectations" : direct ? "weaver" : "weaver merge";
      Measure m = timed(label, path, () -> result[0] = load(name, staging, writePath));
      LoadResult r = result[0];
      Map<String, Long> counts = new LinkedHashMap<>();
      counts.put("inserted", r.rowsInserted());
      counts.put("updated", r.rowsUpdated());
      counts.put("deleted", r.rowsDeleted());
      counts.put("unchanged", r.rowsUnchanged());
      if (expect) {
        // Every expectation must have been counted (a Table that declares them records one count
        // each), and none violated: otherwise the two loads would not write the same rows.
        if (r.expectations().size() != masters.shape().expectations().size()) {
          throw new IllegalStateException(
              "the load with expectations counted " + r.expectations() + ": " + r);
        }
        counts.put("quarantined", r.rowsQuarantined());
        counts.put(
            "violating",
            r.expectations().stream().mapToLong(ExpectationCount::rowsViolating).sum());
      }
      found.found.put(label, new Counts(r.rowsInserted(), r.rowsUpdated(), r.rowsDeleted()));
      jobs.lastJobs().forEach(j -> log("    " + label + " job: " + j));
      if (expect) {
        found.weaverExpectations = counts;
      } else if (direct) {
        found.weaverJobs.addAll(jobs.lastJobs());
        found.weaver = counts;
      } else {
        found.weaverMerge = counts;
      }
      long checkStart = System.nanoTime();
      weaver.model();
      double check = (System.nanoTime() - checkStart) / 1e9;
      counts.put("check_ms", Math.round(check * 1000));
      log(
          String.format(
              Locale.ROOT,
              "    (Check of the workspace alone, as loadWith runs it: %.2f s)",
              check));
      return m;
    } finally {
      delete(Path.of(path));
    }
  }

  /**
   * One timed Weaver plan (docs/plan.md) on a fresh copy: the load run to its gates and stopped,
   * with no load history (as the timed load at f > 0). Its counts must be the loads' (checked with
   * the run's others in {@link RunCounts#verify}), and it must commit nothing.
   */
  private Measure weaverPlan(
      Masters masters, Supplier<Dataset<Row>> staging, String tag, RunCounts found) {
    String object = "P_" + tag + "_" + (++tables);
    String name = declare(object, masters.shape());
    String path = tablePath(object);
    copy(masters.weaver(), Path.of(path));
    settleCatalogue();
    LoadPlan[] plan = new LoadPlan[1];
    Measure m =
        timed("plan", path, () -> plan[0] = weaver.planWith(name, false, provider(staging)));
    jobs.lastJobs().forEach(j -> log("    plan job: " + j));
    LoadPlan p = plan[0];
    if (p.status() != LoadStatus.SUCCEEDED || m.metric("committed") != 0) {
      throw new IllegalStateException("the plan did not predict a load, or it wrote: " + p);
    }
    found.found.put(
        "plan", new Counts(p.counts().inserted(), p.counts().updated(), p.counts().deleted()));
    delete(Path.of(path));
    return m;
  }

  private Measure handWritten(Masters masters, Supplier<Dataset<Row>> staging, String tag) {
    TableShape shape = masters.shape();
    Path path = work.resolve("cases/hand_" + tag + "_" + (++tables));
    copy(masters.hand(), path);
    Measure m =
        timed(
            "hand-written",
            path.toString(),
            () -> {
              Dataset<Row> s = staging.get();
              List<Column> sourceColumns = TableShape.columns(shape.columns());
              sourceColumns.add(shape.hashSignature().as("sig"));
              Dataset<Row> source = s.select(sourceColumns.toArray(new Column[0]));
              List<Column> targetColumns = new ArrayList<>(shape.targetKeys());
              targetColumns.add(col("sig").as("t_sig"));
              Dataset<Row> target =
                  spark
                      .read()
                      .format("delta")
                      .load(path.toString())
                      .select(targetColumns.toArray(new Column[0]));
              Dataset<Row> changes =
                  shape.coalesceKeys(
                      source
                          .join(target, shape.keyJoin(source), "full_outer")
                          .withColumn(
                              "op",
                              when(shape.onlyInStaging(), lit("insert"))
                                  .when(shape.onlyInTarget(), lit("delete"))
                                  .when(col("sig").notEqual(col("t_sig")), lit("update")))
                          .where(col("op").isNotNull()));
              List<String> set = new ArrayList<>(shape.valueColumns());
              set.add("sig");
              List<String> insert = new ArrayList<>(shape.columns());
              insert.add("sig");
              DeltaTable.forPath(spark, path.toString())
                  .as("t")
                  .merge(changes.as("s"), shape.mergeCondition())
                  .whenMatched("s.op = 'delete'")
                  .delete()
                  .whenMatched("s.op = 'update'")
                  .updateExpr(TableShape.fromSource(set))
                  .whenNotMatched("s.op = 'insert'")
                  .insertExpr(TableShape.fromSource(insert))
                  .execute();
            });
    delete(path);
    return m;
  }

  private Measure unconditional(Masters masters, Supplier<Dataset<Row>> staging, String tag) {
    Path path = work.resolve("cases/plain_" + tag + "_" + (++tables));
    copy(masters.plain(), path);
    Measure m =
        timed(
            "unconditional",
            path.toString(),
            () -> {
              staging.get().createOrReplaceTempView("bench_staging");
              spark.sql(
                  "MERGE INTO delta."
                      + TableShape.quote(path.toString())
                      + " t USING bench_staging s ON "
                      + masters.shape().mergeCondition()
                      + " WHEN MATCHED THEN UPDATE SET *"
                      + " WHEN NOT MATCHED THEN INSERT *"
                      + " WHEN NOT MATCHED BY SOURCE THEN DELETE");
            });
    delete(path);
    return m;
  }

  /**
   * The lower bound reads a fresh folder copy of the Weaver master, like every other approach: a
   * table read for the first time in the process pays Delta's snapshot reconstruction (about a
   * second of small jobs), and reading the master itself would skip it from the second run on
   * (Delta keeps the snapshot of a path it has read), a start no real load has.
   */
  private Measure lowerBound(
      Masters masters, Supplier<Dataset<Row>> staging, String tag, RunCounts found) {
    TableShape shape = masters.shape();
    Path copyPath = work.resolve("cases/lower_" + tag + "_" + (++tables));
    copy(masters.weaver(), copyPath);
    String path = copyPath.toString();
    Row[] counts = new Row[1];
    Measure m =
        timed(
            "lower bound",
            path,
            () -> {
              Dataset<Row> s = staging.get();
              List<Column> sourceColumns = TableShape.columns(shape.key());
              sourceColumns.add(shape.weaverSignature().as("sig"));
              Dataset<Row> source = s.select(sourceColumns.toArray(new Column[0]));
              List<Column> targetColumns = new ArrayList<>(shape.targetKeys());
              targetColumns.add(col(ManagedColumns.SIGNATURE).as("t_sig"));
              targetColumns.add(col(ManagedColumns.DELETE_TIME).equalTo(lit(LIVE)).as("t_live"));
              Dataset<Row> target =
                  spark
                      .read()
                      .format("delta")
                      .load(path)
                      .select(targetColumns.toArray(new Column[0]));
              counts[0] =
                  source
                      .join(target, shape.keyJoin(source), "full_outer")
                      .agg(
                          count_if(shape.onlyInStaging()).as("inserts"),
                          count_if(shape.onlyInTarget().and(col("t_live"))).as("deletes"),
                          count_if(
                                  not(shape.onlyInStaging().or(shape.onlyInTarget()))
                                      .and(
                                          col("sig")
                                              .notEqual(col("t_sig"))
                                              .or(col("t_live").equalTo(false))))
                              .as("updates"))
                      .head();
            });
    jobs.lastJobs().forEach(j -> log("    lower bound job: " + j));
    Row c = counts[0];
    Counts diff =
        new Counts(
            c.getLong(c.fieldIndex("inserts")),
            c.getLong(c.fieldIndex("updates")),
            c.getLong(c.fieldIndex("deletes")));
    log("  lower bound diff: " + diff);
    found.found.put("lower bound", diff);
    delete(copyPath);
    return m;
  }

  // ---------------------------------------------------------------------------------- jobs

  /**
   * Counts Spark jobs, input bytes and shuffle bytes written between {@link #reset} and {@link
   * #snapshot}: the jobs of one timed call (the benchmark runs nothing else meanwhile).
   */
  static final class JobRecorder extends SparkListener {
    record Snapshot(
        int jobs, long inputBytes, long busyMillis, long shuffleBytes, long taskCpuNanos) {}

    private final Map<Integer, long[]> started = new LinkedHashMap<>();
    private final Map<Integer, String> sites = new LinkedHashMap<>();
    private final List<String> finished = new ArrayList<>();
    private long inputBytes;
    private long shuffleBytes;
    private long taskCpuNanos;
    private int jobCount;
    private int running;
    private long busySince;
    private long busyMillis;
    private long resetAt = System.currentTimeMillis();

    synchronized void reset() {
      resetAt = System.currentTimeMillis();
      started.clear();
      sites.clear();
      finished.clear();
      inputBytes = 0;
      shuffleBytes = 0;
      taskCpuNanos = 0;
      jobCount = 0;
      busyMillis = 0;
      busySince = System.currentTimeMillis();
    }

    synchronized Snapshot snapshot() {
      return new Snapshot(jobCount, inputBytes, busyMillis, shuffleBytes, taskCpuNanos);
    }

    synchronized List<String> lastJobs() {
      return List.copyOf(finished);
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart jobStart) {
      jobCount++;
      if (running++ == 0) {
        busySince = jobStart.time();
      }
      String site = "?";
      boolean described = false;
      if (jobStart.properties() != null
          && jobStart.properties().getProperty("spark.job.description") != null) {
        site = jobStart.properties().getProperty("spark.job.description");
        described = true;
      } else if (!jobStart.stageInfos().isEmpty()) {
        site = jobStart.stageInfos().last().name();
      }
      site = site.replaceAll("\\s+", " ");
      if (site.length() > 110) {
        site = site.substring(0, 110) + "…";
      }
      if (described && !jobStart.stageInfos().isEmpty()) {
        // Which line of code ran the job and how wide its last stage is: a load's step runs
        // several jobs under one description, and these tell them apart.
        org.apache.spark.scheduler.StageInfo last = jobStart.stageInfos().last();
        site += " [" + last.name() + ", " + last.numTasks() + " tasks]";
      }
      started.put(jobStart.jobId(), new long[] {jobStart.time(), jobStart.stageIds().size()});
      sites.put(jobStart.jobId(), site);
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd jobEnd) {
      long[] s = started.get(jobEnd.jobId());
      if (running > 0 && --running == 0) {
        busyMillis += jobEnd.time() - busySince;
      }
      if (s != null) {
        finished.add(
            String.format(
                Locale.ROOT,
                "job %d at +%5d ms %5d ms %d stage(s) %s",
                jobEnd.jobId(),
                s[0] - resetAt,
                jobEnd.time() - s[0],
                s[1],
                sites.get(jobEnd.jobId())));
      }
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
      if (taskEnd.taskMetrics() != null) {
        inputBytes += taskEnd.taskMetrics().inputMetrics().bytesRead();
        // What a cluster sends over its network and spills to its local disks between stages.
        shuffleBytes += taskEnd.taskMetrics().shuffleWriteMetrics().bytesWritten();
        taskCpuNanos += taskEnd.taskMetrics().executorCpuTime();
      }
    }
  }
}
