package io.weaver.bench;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Where the cost of expectations in the diff's pass goes (a study, not a test; docs/performance.md,
 * "Expectations in the diff's pass"): the diff's staging side and narrow join built as the engine
 * builds them, with and without the synthetic shape's three expectations, and in two other
 * arrangements of the same counts. Each variant's Spark tasks' CPU time is measured besides wall
 * time, because on a shared machine wall time moves by more than the few percent in question.
 * Variants run interleaved, five rounds after one warm-up round, one JVM. Run with {@code
 * benchmarks/run --anatomy-expectations [--rows N]}.
 */
public final class ExpectationsAnatomy {
  /** The variants, in the order each round runs them. */
  enum Variant {
    /** No expectations: the validator's observation, the typed columns, the narrow projection. */
    PLAIN,
    /** As the engine does now: quarantine flag added, then a second observation, then narrow. */
    ENGINE,
    /** As {@link #ENGINE} without the quarantine flag: what the second observation costs alone. */
    OBSERVE_ONLY,
    /** The expectations' counts in the validator's observation: one observation, then narrow. */
    ONE_OBSERVATION
  }

  private static final class TaskCpu extends SparkListener {
    private long nanos;

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
      if (taskEnd.taskMetrics() != null) {
        nanos += taskEnd.taskMetrics().executorCpuTime();
      }
    }

    synchronized long take() {
      long n = nanos;
      nanos = 0;
      return n;
    }
  }

  public static void main(String[] args) throws Exception {
    long n = 1_000_000;
    Path work = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--rows" -> n = Long.parseLong(args[i + 1]);
        case "--work" -> work = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (work == null) {
      work = Files.createTempDirectory("anatomy");
    }
    SparkSession spark = BenchSession.create(work.resolve("lake"), List.of("Bench"));
    spark.sparkContext().setLogLevel("WARN");
    TaskCpu cpu = new TaskCpu();
    spark.sparkContext().addSparkListener(cpu);
    SyntheticWorkload synthetic = new SyntheticWorkload(spark, n, List.of(0.01));
    String stagingPath = work.resolve("staging").toString();
    synthetic.deliveries().get(0).staging().write().parquet(stagingPath);
    String target = work.resolve("target").toString();
    synthetic
        .base()
        .select(col("id").as("t_id"), SyntheticWorkload.weaverSignature().as("t_sig"))
        .write()
        .format("delta")
        .save(target);
    Map<Variant, List<double[]>> measured = new LinkedHashMap<>();
    for (int round = 0; round < 6; round++) {
      for (Variant v : Variant.values()) {
        cpu.take();
        long t0 = System.nanoTime();
        Row counts = diff(spark, v, stagingPath, target);
        double wall = (System.nanoTime() - t0) / 1e9;
        spark.sparkContext().listenerBus().waitUntilEmpty();
        double task = cpu.take() / 1e9;
        System.err.printf(
            Locale.ROOT,
            "EXPECT round %d %-16s %6.2f s wall %6.2f s task CPU %s%n",
            round,
            v,
            wall,
            task,
            counts);
        if (round > 0) { // round 0 warms the JIT and code generation
          measured.computeIfAbsent(v, k -> new ArrayList<>()).add(new double[] {wall, task});
        }
      }
    }
    double[] plain = medians(measured.get(Variant.PLAIN));
    System.out.printf(
        Locale.ROOT, "%-16s %9s %9s %9s %9s%n", "variant", "wall s", "task s", "wall/p", "task/p");
    for (Variant v : Variant.values()) {
      double[] m = medians(measured.get(v));
      System.out.printf(
          Locale.ROOT,
          "%-16s %9.2f %9.2f %9.3f %9.3f%n",
          v,
          m[0],
          m[1],
          m[0] / plain[0],
          m[1] / plain[1]);
    }
    spark.stop();
  }

  /**
   * The diff's staging side as {@code KeyedLoad} builds it (validator observation over the raw
   * rows, typed projection, the expectations' flag and observation, the narrow projection) joined
   * with the target's key and signature and counted, so the join's shuffle is in every variant.
   */
  static Row diff(SparkSession spark, Variant v, String stagingPath, String target) {
    Dataset<Row> raw = spark.read().parquet(stagingPath);
    List<Column> checks = new ArrayList<>();
    // The validator's per-column null counts (StagingValidator's checks, simplified).
    for (String c : SyntheticWorkload.COLUMNS) {
      checks.add(count_if(col(c).isNull()).as("null_" + c));
    }
    List<Column> rules = new ArrayList<>();
    for (TableShape.Expect e : SyntheticWorkload.EXPECTATIONS) {
      rules.add(count_if(violated(e)).as("e" + rules.size()));
    }
    if (v == Variant.ONE_OBSERVATION) {
      checks.addAll(rules);
    }
    Dataset<Row> typed =
        raw.observe(observation(), count(lit(1)).as("rows"), checks.toArray(new Column[0]))
            .select(
                SyntheticWorkload.COLUMNS.stream().map(c -> col(c).as(c)).toArray(Column[]::new));
    boolean flag = v == Variant.ENGINE || v == Variant.ONE_OBSERVATION;
    if (flag) {
      typed = typed.withColumn("q", violated(SyntheticWorkload.EXPECTATIONS.get(1)));
    }
    if (v == Variant.ENGINE || v == Variant.OBSERVE_ONLY) {
      typed =
          typed.observe(
              observation(), rules.get(0), rules.subList(1, rules.size()).toArray(new Column[0]));
    }
    List<Column> narrow =
        new ArrayList<>(List.of(col("id"), SyntheticWorkload.weaverSignature().as("sig")));
    if (flag) {
      narrow.add(col("q"));
    }
    Dataset<Row> staged = typed.select(narrow.toArray(new Column[0]));
    Dataset<Row> joined =
        staged.join(
            spark.read().format("delta").load(target),
            staged.col("id").equalTo(col("t_id")),
            "full_outer");
    return joined
        .agg(
            count_if(col("t_id").isNull()).as("inserts"),
            count_if(col("id").isNull()).as("deletes"),
            count_if(col("sig").notEqual(col("t_sig"))).as("updates"),
            count_if(flag ? col("q") : lit(false)).as("quarantined"))
        .head();
  }

  private static Column violated(TableShape.Expect e) {
    return not(coalesce(expr(e.rule()), lit(false)));
  }

  private static Observation observation() {
    return new Observation("anatomy_" + System.nanoTime());
  }

  private static double[] medians(List<double[]> runs) {
    double[] out = new double[2];
    for (int k = 0; k < 2; k++) {
      final int i = k;
      List<Double> s = runs.stream().map(r -> r[i]).sorted().toList();
      int m = s.size() / 2;
      out[k] = s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
    }
    return out;
  }
}
