package io.weaver.bench;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat_ws;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sha2;
import static org.apache.spark.sql.functions.when;

import io.delta.tables.DeltaTable;
import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalyst.signature.RowSignature;
import io.weaver.embedded.EmbeddedSession;
import io.weaver.load.LoadPlan;
import io.weaver.load.LoadResult;
import io.weaver.load.LoadStatus;
import io.weaver.load.StagingProvider;
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
 * Benchmark, not a test: a snapshot load through Weaver's engine against a hand-written hash-diff
 * merge, the unconditional {@code MERGE … UPDATE SET * … INSERT * … DELETE} most tools generate,
 * and the lower bound (one diff job that writes nothing), on copies of the same keyed Delta target,
 * for several change fractions. Run through {@code benchmarks/run}.
 *
 * <p>Arguments: {@code [--rows N] [--runs R] [--fractions 0,0.001,0.01,0.1] [--format text|json]
 * [--work DIR] [--no-warmup]}. Logs go to stderr; the table or the JSON document to stdout.
 */
public final class LoadBenchmark {
  static final String ITEM = "Bench";
  static final Instant BASE_TS = Instant.parse("2024-01-01T00:00:00Z");
  static final Instant LIVE = Instant.parse("9999-12-31T00:00:00Z");

  /** The business columns, generated from {@code id} and a version {@code v} (1 = updated). */
  static final List<String> COLUMNS =
      List.of(
          "id",
          "customer",
          "segment",
          "quantity",
          "amount",
          "ratio",
          "active",
          "created",
          "updated_at",
          "code",
          "note");

  static final List<String> EXPRESSIONS =
      List.of(
          "id",
          "concat('customer-', cast(id as string)) as customer",
          "element_at(array('retail', 'smb', 'enterprise', 'public'), cast(pmod(id, 4) as int) + 1)"
              + " as segment",
          "cast(pmod(id * 31 + v * 7, 1000) as int) as quantity",
          "cast((pmod(id * 7919, 1000000) + v * 13) / 100.0 as decimal(18,2)) as amount",
          "(pmod(id, 997) + v) / 997.0D as ratio",
          "pmod(id + v, 3) <> 0 as active",
          "date_add(date'2015-01-01', cast(pmod(id, 3650) as int)) as created",
          "timestamp_micros(1700000000000000 + id * 1000003 + v * 86400000000) as updated_at",
          "upper(concat('c-', cast(pmod(id * 13 + v, 977) as string))) as code",
          "if(pmod(id, 17) = 0, null, concat('note ', cast(pmod(id, 101) + v as string))) as note");

  private final SparkSession spark;
  private final Path work;
  private final Path workspace;
  private final Path lake;
  private final WeaverWorkspace weaver;
  private final JobRecorder jobs = new JobRecorder();
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
    long rows = 1_000_000L;
    int runs = 1;
    boolean json = false;
    boolean warmup = true;
    List<Double> fractions = List.of(0.0, 0.001, 0.01, 0.1);
    Path work = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rows" -> rows = Long.parseLong(args[++i].replace("_", "").replace(",", ""));
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
        default -> {
          System.err.println(
              "usage: LoadBenchmark [--rows N] [--runs R] [--fractions f,f,…] [--format text|json]"
                  + " [--work DIR] [--no-warmup]");
          System.exit(2);
        }
      }
    }
    if (work == null) {
      work = Files.createTempDirectory("weaver-bench");
    }
    Path lakeRoot = work.resolve("lake");
    // Its own session, not SharedSpark: a benchmark measures the embedded session on every core.
    SparkSession spark = EmbeddedSession.create(lakeRoot, List.of(ITEM), Optional.of("local[*]"));
    spark.sparkContext().setLogLevel("WARN");
    LoadBenchmark bench = new LoadBenchmark(spark, work);
    try {
      if (warmup) {
        long small = Math.min(rows, 20_000L);
        log("warm-up at " + small + " rows (JIT, code generation; not reported)");
        bench.measure(small, List.of(0.01), 1, "w");
      }
      List<Case> cases = bench.measure(rows, fractions, runs, "m");
      String out = json ? Report.json(rows, runs, cases) : Report.text(rows, runs, cases);
      System.out.println(out);
    } finally {
      spark.stop();
    }
  }

  static void log(String message) {
    System.err.printf(Locale.ROOT, "[bench %tT] %s%n", System.currentTimeMillis(), message);
  }

  // ---------------------------------------------------------------------------------- data

  /** Staging rows for change fraction {@code f}: updates, deletes (absent keys) and inserts. */
  Dataset<Row> generate(long n, double f, int partitions) {
    long ppm = Math.round(f * 1_000_000);
    long inserts = n * ppm / 1_000_000 / 4;
    String changed = "id < " + n + " and pmod(xxhash64(id), 1000000) < " + ppm;
    String deleted = "(" + changed + ") and pmod(xxhash64(id, 7), 4) = 0";
    return spark
        .range(0, n + inserts, 1, partitions)
        .where("not (" + deleted + ")")
        .selectExpr("id", "if(" + changed + ", 1, 0) as v")
        .selectExpr(EXPRESSIONS.toArray(new String[0]));
  }

  /** The original rows (no change), laid out in key ranges of ~100k rows per file. */
  Dataset<Row> base(long n) {
    return generate(n, 0, partitions(n));
  }

  static int partitions(long n) {
    return (int) Math.max(2, Math.min(200, n / 100_000));
  }

  static Column weaverSignature() {
    return RowSignature.rowSignature(
        COLUMNS.subList(1, COLUMNS.size()).stream().map(c -> col(c)).toList());
  }

  static Column hashSignature() {
    Column[] text =
        COLUMNS.subList(1, COLUMNS.size()).stream()
            .map(c -> col(c).cast("string"))
            .toArray(Column[]::new);
    return sha2(concat_ws("|", text), 256);
  }

  // ---------------------------------------------------------------------------------- tables

  private String declare(String object) {
    String body =
        "select "
            + String.join(",\n  ", EXPRESSIONS)
            + "\nfrom (select id, 0 as v from range(0)) as r;\n";
    String header =
        "/*\nTable ID: B."
            + object
            + "\nDescription: Benchmark target.\nPrimary key: id\n"
            + "Delete percentage threshold: 100\nUpdate percentage threshold: 100\n"
            + "Stability row threshold: 0\n*/\n";
    Path file = workspace.resolve("Lakehouse/" + ITEM + "/Tables/B." + object + ".sql");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, header + body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ITEM + ".B." + object;
  }

  private String tablePath(String object) {
    return weaver.layout().tablePath(ITEM, TableId.parse("B." + object).orElseThrow());
  }

  /** The three pristine targets every case copies. */
  record Masters(String weaver, String plain, String hand) {}

  Masters prepare(String tag, long n) {
    String object = "Master_" + tag;
    String name = declare(object);
    var built = weaver.build(Scope.table(name), false);
    if (!built.stream().allMatch(o -> o.action().equals("created"))) {
      throw new IllegalStateException("build of the master target failed: " + built);
    }
    String weaverPath = tablePath(object);
    Dataset<Row> rows = base(n);
    List<Column> managed = new ArrayList<>();
    COLUMNS.forEach(c -> managed.add(col(c)));
    managed.add(lit(BASE_TS).as(ManagedColumns.INSERT_TIME));
    managed.add(lit(BASE_TS).as(ManagedColumns.UPDATE_TIME));
    managed.add(lit(LIVE).as(ManagedColumns.DELETE_TIME));
    managed.add(weaverSignature().as(ManagedColumns.SIGNATURE));
    Dataset<Row> full = rows.select(managed.toArray(new Column[0]));
    String[] order = DeltaTable.forPath(spark, weaverPath).toDF().columns();
    full.selectExpr(order).write().format("delta").mode("append").save(weaverPath);

    String plain = work.resolve("masters/plain_" + tag).toString();
    String hand = work.resolve("masters/hand_" + tag).toString();
    String dv = "spark.databricks.delta.properties.defaults.enableDeletionVectors";
    spark.conf().set(dv, "true");
    try {
      rows.write().format("delta").save(plain);
      rows.withColumn("sig", hashSignature()).write().format("delta").save(hand);
    } finally {
      spark.conf().unset(dv);
    }
    return new Masters(weaverPath, plain, hand);
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

  /** One measurement of one approach. */
  record Measure(
      double seconds, int jobs, double busySeconds, long inputBytes, Map<String, Long> metrics) {
    long metric(String name) {
      return metrics.getOrDefault(name, 0L);
    }
  }

  /** Medians over runs of the four approaches at one fraction. */
  record Case(
      double fraction,
      List<Measure> weaver,
      List<Measure> hand,
      List<Measure> unconditional,
      List<Measure> lower,
      List<Measure> plan,
      Map<String, Long> weaverCounts,
      List<String> weaverJobs) {}

  List<Case> measure(long n, List<Double> fractions, int runs, String tag) {
    long start = System.nanoTime();
    Masters masters = prepare(tag, n);
    log(
        String.format(
            Locale.ROOT,
            "targets of %d rows prepared in %.1f s (%d files per table)",
            n,
            (System.nanoTime() - start) / 1e9,
            partitions(n)));
    List<Case> cases = new ArrayList<>();
    for (double f : fractions) {
      String stagingPath = work.resolve("staging/" + tag + "_" + f).toString();
      generate(n, f, partitions(n)).write().format("parquet").save(stagingPath);
      List<Measure> w = new ArrayList<>();
      List<Measure> h = new ArrayList<>();
      List<Measure> u = new ArrayList<>();
      List<Measure> l = new ArrayList<>();
      List<Measure> p = new ArrayList<>();
      Map<String, Long> counts = Map.of();
      List<String> weaverJobs = List.of();
      for (int r = 0; r < runs; r++) {
        Supplier<Dataset<Row>> staging = () -> spark.read().parquet(stagingPath);
        // Rotate the order so no approach always runs first (cold caches) or last.
        List<Runnable> order = new ArrayList<>();
        Map<String, Long>[] countsOut = newCounts();
        List<String> jobsOut = new ArrayList<>();
        order.add(() -> w.add(weaverLoad(masters, staging, tag, f == 0, countsOut, jobsOut)));
        order.add(() -> h.add(handWritten(masters, staging, tag)));
        order.add(() -> u.add(unconditional(masters, staging, tag)));
        order.add(() -> l.add(lowerBound(masters, staging, tag)));
        order.add(() -> p.add(weaverPlan(masters, staging, tag, countsOut)));
        for (int i = 0; i < order.size(); i++) {
          order.get((i + r) % order.size()).run();
        }
        counts = countsOut[0];
        weaverJobs = jobsOut;
      }
      log(
          String.format(
              Locale.ROOT,
              "f=%s: weaver %.2f s, hand-written %.2f s, unconditional %.2f s, lower bound %.2f s,"
                  + " plan %.2f s; weaver counts %s",
              f,
              median(w),
              median(h),
              median(u),
              median(l),
              median(p),
              counts));
      cases.add(new Case(f, w, h, u, l, p, counts, weaverJobs));
      delete(Path.of(stagingPath));
    }
    return cases;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Long>[] newCounts() {
    return new Map[] {Map.of()};
  }

  static double median(List<Measure> measures) {
    List<Double> s = measures.stream().map(Measure::seconds).sorted().toList();
    int m = s.size() / 2;
    return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
  }

  private Measure timed(String label, String path, Runnable action) {
    long before = DeltaTable.forPath(spark, path).history(1).first().getLong(0);
    jobs.reset();
    long start = System.nanoTime();
    action.run();
    double seconds = (System.nanoTime() - start) / 1e9;
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
            "  %-13s %7.2f s, %2d jobs (Spark busy %.2f s), %,d input bytes, commit %s",
            label,
            seconds,
            snapshot.jobs(),
            snapshot.busyMillis() / 1e3,
            snapshot.inputBytes(),
            metrics.get("committed") == 1
                ? "files+"
                    + metrics.get("numTargetFilesAdded")
                    + " bytes+"
                    + metrics.get("numTargetBytesAdded")
                    + " copied "
                    + metrics.get("numTargetRowsCopied")
                : "none"));
    return new Measure(
        seconds, snapshot.jobs(), snapshot.busyMillis() / 1e3, snapshot.inputBytes(), metrics);
  }

  /**
   * One timed Weaver load on a fresh copy. With {@code steady}, the load models a Table in its
   * steady state of finding nothing to do: one untimed load with the same staging runs first (its
   * history says it changed nothing, so the timed load checks checksums first, as every later load
   * of such a Table does), and Delta's cached snapshot of the copy is dropped so the timed load
   * starts as cold as every other approach. Without it, the Table has no load history (as a Table
   * whose loads keep changing rows behaves: the full diff runs directly).
   */
  private Measure weaverLoad(
      Masters masters,
      Supplier<Dataset<Row>> staging,
      String tag,
      boolean steady,
      Map<String, Long>[] countsOut,
      List<String> jobsOut) {
    String object = "W_" + tag + "_" + (++tables);
    String name = declare(object);
    String path = tablePath(object);
    copy(masters.weaver(), Path.of(path));
    if (steady) {
      List<LoadResult> earlier =
          weaver.loadWith(
              name,
              false,
              (t, c) ->
                  new StagingProvider.Staging(staging.get(), Optional.empty(), Optional.empty()));
      LoadResult e = earlier.get(earlier.size() - 1);
      if (e.status() != LoadStatus.SUCCEEDED || e.deltaVersion() < 0) {
        throw new IllegalStateException("the untimed earlier load did not succeed: " + e);
      }
      org.apache.spark.sql.delta.DeltaLog.invalidateCache(
          spark, new org.apache.hadoop.fs.Path(path));
    }
    LoadResult[] result = new LoadResult[1];
    Measure m =
        timed(
            "weaver",
            path,
            () -> {
              List<LoadResult> results =
                  weaver.loadWith(
                      name,
                      false,
                      (t, c) ->
                          new StagingProvider.Staging(
                              staging.get(), Optional.empty(), Optional.empty()));
              result[0] = results.get(results.size() - 1);
            });
    jobsOut.addAll(jobs.lastJobs());
    LoadResult r = result[0];
    if (r.status() != LoadStatus.SUCCEEDED) {
      throw new IllegalStateException("the Weaver load did not succeed: " + r);
    }
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("inserted", r.rowsInserted());
    counts.put("updated", r.rowsUpdated());
    counts.put("deleted", r.rowsDeleted());
    counts.put("unchanged", r.rowsUnchanged());
    countsOut[0] = counts;
    jobs.lastJobs().forEach(j -> log("    weaver job: " + j));
    long checkStart = System.nanoTime();
    weaver.model();
    double check = (System.nanoTime() - checkStart) / 1e9;
    counts.put("check_ms", Math.round(check * 1000));
    log(
        String.format(
            Locale.ROOT, "    (Check of the workspace alone, as loadWith runs it: %.2f s)", check));
    delete(Path.of(path));
    return m;
  }

  /**
   * One timed Weaver plan (docs/plan.md) on a fresh copy: the load run to its gates and stopped,
   * with no load history (as the timed load at f > 0). Its counts must be the load's, and it must
   * commit nothing.
   */
  private Measure weaverPlan(
      Masters masters, Supplier<Dataset<Row>> staging, String tag, Map<String, Long>[] countsOut) {
    String object = "P_" + tag + "_" + (++tables);
    String name = declare(object);
    String path = tablePath(object);
    copy(masters.weaver(), Path.of(path));
    LoadPlan[] plan = new LoadPlan[1];
    Measure m =
        timed(
            "plan",
            path,
            () ->
                plan[0] =
                    weaver.planWith(
                        name,
                        false,
                        (t, c) ->
                            new StagingProvider.Staging(
                                staging.get(), Optional.empty(), Optional.empty())));
    jobs.lastJobs().forEach(j -> log("    plan job: " + j));
    LoadPlan p = plan[0];
    if (p.status() != LoadStatus.SUCCEEDED || m.metric("committed") != 0) {
      throw new IllegalStateException("the plan did not predict a load, or it wrote: " + p);
    }
    Map<String, Long> loaded = countsOut[0];
    if (!loaded.isEmpty()
        && (loaded.get("inserted") != p.counts().inserted()
            || loaded.get("updated") != p.counts().updated()
            || loaded.get("deleted") != p.counts().deleted())) {
      throw new IllegalStateException(
          "the plan's counts " + p.counts() + " are not the load's " + loaded);
    }
    delete(Path.of(path));
    return m;
  }

  private Measure handWritten(Masters masters, Supplier<Dataset<Row>> staging, String tag) {
    Path path = work.resolve("cases/hand_" + tag + "_" + (++tables));
    copy(masters.hand(), path);
    Measure m =
        timed(
            "hand-written",
            path.toString(),
            () -> {
              Dataset<Row> s = staging.get();
              Dataset<Row> source =
                  s.select(
                      Stream.concat(
                              COLUMNS.stream().map(c -> s.col(c)),
                              Stream.of(hashSignature().as("sig")))
                          .toArray(Column[]::new));
              Dataset<Row> target =
                  spark
                      .read()
                      .format("delta")
                      .load(path.toString())
                      .select(col("id").as("t_id"), col("sig").as("t_sig"));
              Dataset<Row> changes =
                  source
                      .join(target, source.col("id").equalTo(target.col("t_id")), "full_outer")
                      .withColumn(
                          "op",
                          when(col("t_id").isNull(), lit("insert"))
                              .when(col("id").isNull(), lit("delete"))
                              .when(col("sig").notEqual(col("t_sig")), lit("update")))
                      .where(col("op").isNotNull())
                      .withColumn("id", coalesce(col("id"), col("t_id")));
              Map<String, String> set = new LinkedHashMap<>();
              for (String c : COLUMNS.subList(1, COLUMNS.size())) {
                set.put(c, "s." + c);
              }
              set.put("sig", "s.sig");
              Map<String, String> insert = new LinkedHashMap<>(set);
              insert.put("id", "s.id");
              DeltaTable.forPath(spark, path.toString())
                  .as("t")
                  .merge(changes.as("s"), "t.id = s.id")
                  .whenMatched("s.op = 'delete'")
                  .delete()
                  .whenMatched("s.op = 'update'")
                  .updateExpr(set)
                  .whenNotMatched("s.op = 'insert'")
                  .insertExpr(insert)
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
                  "MERGE INTO delta.`"
                      + path
                      + "` t USING bench_staging s ON t.id = s.id"
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
  private Measure lowerBound(Masters masters, Supplier<Dataset<Row>> staging, String tag) {
    Path copyPath = work.resolve("cases/lower_" + tag + "_" + (++tables));
    copy(masters.weaver(), copyPath);
    String path = copyPath.toString();
    Measure m =
        timed(
            "lower bound",
            path,
            () -> {
              Dataset<Row> s = staging.get();
              Dataset<Row> source = s.select(col("id"), weaverSignature().as("sig"));
              Dataset<Row> target =
                  spark
                      .read()
                      .format("delta")
                      .load(path)
                      .select(
                          col("id").as("t_id"),
                          col(ManagedColumns.SIGNATURE).as("t_sig"),
                          col(ManagedColumns.DELETE_TIME).equalTo(lit(LIVE)).as("t_live"));
              Row counts =
                  source
                      .join(target, source.col("id").equalTo(target.col("t_id")), "full_outer")
                      .agg(
                          count_if(col("t_id").isNull()).as("inserts"),
                          count_if(col("id").isNull().and(col("t_live"))).as("deletes"),
                          count_if(
                                  col("id")
                                      .isNotNull()
                                      .and(col("t_id").isNotNull())
                                      .and(
                                          col("sig")
                                              .notEqual(col("t_sig"))
                                              .or(col("t_live").equalTo(false))))
                              .as("updates"))
                      .head();
              log("  lower bound diff: " + counts);
            });
    jobs.lastJobs().forEach(j -> log("    lower bound job: " + j));
    delete(copyPath);
    return m;
  }

  // ---------------------------------------------------------------------------------- jobs

  /** Counts Spark jobs and input bytes between {@link #reset} and {@link #snapshot}. */
  static final class JobRecorder extends SparkListener {
    record Snapshot(int jobs, long inputBytes, long busyMillis) {}

    private final Map<Integer, long[]> started = new LinkedHashMap<>();
    private final Map<Integer, String> sites = new LinkedHashMap<>();
    private final List<String> finished = new ArrayList<>();
    private long inputBytes;
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
      jobCount = 0;
      busyMillis = 0;
      busySince = System.currentTimeMillis();
    }

    synchronized Snapshot snapshot() {
      return new Snapshot(jobCount, inputBytes, busyMillis);
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
      if (jobStart.properties() != null
          && jobStart.properties().getProperty("spark.job.description") != null) {
        site = jobStart.properties().getProperty("spark.job.description");
      } else if (!jobStart.stageInfos().isEmpty()) {
        site = jobStart.stageInfos().last().name();
      }
      site = site.replaceAll("\\s+", " ");
      if (site.length() > 110) {
        site = site.substring(0, 110) + "…";
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
      }
    }
  }
}
