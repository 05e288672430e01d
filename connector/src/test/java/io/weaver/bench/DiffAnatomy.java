package io.weaver.bench;

import static org.apache.spark.sql.functions.bit_xor;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.unhex;
import static org.apache.spark.sql.functions.when;
import static org.apache.spark.sql.functions.xxhash64;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Where the diff's time goes (a study, not a test): the staging scan alone, with the row signature,
 * with {@code sha2(concat_ws(…))}, the target's key/signature scan, and the narrow full outer join
 * comparing signatures as strings, unhexed binaries or 64-bit hashes, and what Weaver's diff adds
 * to it (the staging observation; classification, observation and checkpoint); three rounds, one
 * JVM. Run with {@code benchmarks/run --anatomy [--rows N]}; with {@code ANATOMY_REREAD=1} it
 * measures instead what locating the replaced rows costs beside the join (every column, or key and
 * position), and with {@code ANATOMY_PREFILTER=1} the narrow diff's refetch against a Bloom
 * pre-filter (docs/performance.md).
 */
public final class DiffAnatomy {
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
    // Its own session, not SharedSpark: a benchmark measures the embedded session on every core.
    SparkSession spark = BenchSession.create(work.resolve("lake"), List.of("Bench"));
    SyntheticWorkload synthetic = new SyntheticWorkload(spark, n, List.of(0.01));
    String stagingPath = work.resolve("staging").toString();
    synthetic.deliveries().get(0).staging().write().parquet(stagingPath);
    String target = work.resolve("target").toString();
    synthetic
        .base()
        .withColumn("sig", SyntheticWorkload.weaverSignature())
        .write()
        .format("delta")
        // As Weaver's Tables are: deletion vectors on, so a read can expose `_metadata.row_index`.
        .option("delta.enableDeletionVectors", "true")
        .save(target);
    Supplier<Dataset<Row>> s = () -> spark.read().parquet(stagingPath);
    Column[] all = SyntheticWorkload.COLUMNS.stream().map(c -> col(c)).toArray(Column[]::new);
    if (System.getenv("ANATOMY_REREAD") != null) {
      for (int round = 0; round < 3; round++) {
        rereadRound(spark, s, target, n);
      }
      spark.stop();
      return;
    }
    if (System.getenv("ANATOMY_PREFILTER") != null) {
      for (int round = 0; round < 3; round++) {
        prefilterRound(spark, s, target, n);
      }
      spark.stop();
      return;
    }
    for (int round = 0; round < 3; round++) {
      time("scan all columns", () -> s.get().agg(bit_xor(xxhash64(all))).collect());
      time(
          "scan + row_signature",
          () -> s.get().agg(bit_xor(xxhash64(SyntheticWorkload.weaverSignature()))).collect());
      time(
          "scan + sha2(concat_ws)",
          () -> s.get().agg(bit_xor(xxhash64(SyntheticWorkload.hashSignature()))).collect());
      time(
          "target id,sig scan",
          () ->
              spark
                  .read()
                  .format("delta")
                  .load(target)
                  .agg(bit_xor(xxhash64(col("id"), col("sig"))))
                  .collect());
      for (String shape : List.of("plain", "window", "sortagg")) {
        time(
            "diff join " + shape,
            () -> {
              Dataset<Row> st =
                  s.get().select(col("id"), SyntheticWorkload.weaverSignature().as("sig"));
              if (shape.equals("window")) {
                st =
                    st.withColumn(
                        "rk",
                        org.apache
                            .spark
                            .sql
                            .functions
                            .row_number()
                            .over(
                                org.apache.spark.sql.expressions.Window.partitionBy(col("id"))
                                    .orderBy(col("id"))));
              } else if (shape.equals("sortagg")) {
                st =
                    st.groupBy(col("id"))
                        .agg(
                            org.apache
                                .spark
                                .sql
                                .functions
                                .count(org.apache.spark.sql.functions.lit(1))
                                .as("rk"),
                            org.apache.spark.sql.functions.min(col("sig")).as("sig"));
              } else {
                st = st.withColumn("rk", org.apache.spark.sql.functions.lit(1));
              }
              Dataset<Row> t =
                  spark
                      .read()
                      .format("delta")
                      .load(target)
                      .select(col("id").as("t_id"), col("sig").as("t_sig"));
              return st.join(t, st.col("id").equalTo(t.col("t_id")), "full_outer")
                  .agg(
                      count_if(col("t_id").isNull()),
                      count_if(col("id").isNull()),
                      count_if(col("sig").notEqual(col("t_sig"))),
                      count_if(col("rk").gt(1)))
                  .collect();
            });
      }
      // What Weaver's diff adds to the plain join (docs/performance.md, 2026-12-03): the staging
      // validation observation over every row, then the classification, its observation behind
      // the changed-rows filter and the changed-key checkpoint.
      time(
          "diff join + staging observe",
          () -> {
            List<Column> checks = new java.util.ArrayList<>();
            for (String c : SyntheticWorkload.COLUMNS) {
              checks.add(count_if(col(c).isNull()).as("null_" + c));
            }
            Dataset<Row> observed =
                s.get()
                    .observe(
                        new org.apache.spark.sql.Observation("anatomy_" + System.nanoTime()),
                        org.apache.spark.sql.functions.count(lit(1)).as("rows"),
                        checks.toArray(new Column[0]));
            return narrowJoin(spark, observed, target)
                .agg(
                    count_if(col("t_id").isNull()),
                    count_if(col("id").isNull()),
                    count_if(col("sig").notEqual(col("t_sig"))))
                .collect();
          });
      time(
          "diff classify + checkpoint",
          () -> {
            Column op =
                when(col("t_id").isNull(), lit("I"))
                    .when(col("id").isNull(), lit("D"))
                    .when(col("sig").notEqual(col("t_sig")), lit("U"))
                    .otherwise(lit("N"));
            Dataset<Row> changed =
                narrowJoin(spark, s.get(), target)
                    .withColumn("op", op)
                    .filter(col("op").notEqual(lit("N")))
                    .observe(
                        new org.apache.spark.sql.Observation("anatomy_" + System.nanoTime()),
                        count_if(col("op").equalTo(lit("I"))).as("i"),
                        count_if(col("op").equalTo(lit("U"))).as("u"),
                        count_if(col("op").equalTo(lit("D"))).as("d"))
                    .select(
                        org.apache.spark.sql.functions.coalesce(col("id"), col("t_id")), col("op"))
                    .localCheckpoint(true);
            return changed.groupBy("op").count().orderBy("op").collect();
          });
      for (String mode : List.of("string")) {
        time(
            "diff sig as " + mode,
            () -> {
              Dataset<Row> st =
                  s.get()
                      .select(
                          col("id"), compact(SyntheticWorkload.weaverSignature(), mode).as("sig"));
              Dataset<Row> t =
                  spark
                      .read()
                      .format("delta")
                      .load(target)
                      .select(col("id").as("t_id"), compact(col("sig"), mode).as("t_sig"));
              return st.join(t, st.col("id").equalTo(t.col("t_id")), "full_outer")
                  .agg(
                      count_if(col("t_id").isNull()),
                      count_if(col("id").isNull()),
                      count_if(col("sig").notEqual(col("t_sig"))))
                  .collect();
            });
      }
    }
    spark.stop();
  }

  /**
   * Issue 38: what locating the replaced rows costs beside the diff's join (the lower bound's
   * work), with every column (a snapshot load that soft-deletes writes the deleted rows again, so
   * it reads their values) and with the key and position alone (a load without soft deletes). The
   * replaced keys are the 1 % delivery's updates and deletes, spread over every file as the
   * benchmark's are.
   */
  static void rereadRound(SparkSession spark, Supplier<Dataset<Row>> s, String target, long n) {
    time(
        "diff join plain",
        () ->
            narrowJoin(spark, s.get(), target)
                .agg(
                    count_if(col("t_id").isNull()),
                    count_if(col("id").isNull()),
                    count_if(col("sig").notEqual(col("t_sig"))))
                .collect());
    Dataset<Row> read = spark.read().format("delta").load(target);
    Column[] every =
        java.util.Arrays.stream(read.columns()).map(c -> read.col(c)).toArray(Column[]::new);
    time("target id,sig scan", () -> read.agg(bit_xor(xxhash64(col("id"), col("sig")))).collect());
    time("target all columns scan", () -> read.agg(bit_xor(xxhash64(every))).collect());
    Dataset<Row> keys =
        spark.range(0, n).where(SyntheticWorkload.changed(n, 0.01)).toDF().localCheckpoint(true);
    Column file = xxhash64(read.col("_metadata").getField("file_path"));
    Column row = read.col("_metadata").getField("row_index");
    time(
        "locate 1 % keys, all columns",
        () ->
            read.select(read.col("*"), file.as("f"), row.as("r"))
                .join(org.apache.spark.sql.functions.broadcast(keys), "id")
                .agg(bit_xor(xxhash64(every)), bit_xor(col("r")), count_if(lit(true)))
                .collect());
    time(
        "locate 1 % keys, key + position",
        () ->
            read.select(col("id"), file.as("f"), row.as("r"))
                .join(org.apache.spark.sql.functions.broadcast(keys), "id")
                .agg(bit_xor(col("f")), bit_xor(col("r")), count_if(lit(true)))
                .collect());
    keys.unpersist(false);
  }

  /**
   * Issue 38: the narrow diff followed by a second staging read for the changed rows' values,
   * against one staging read whose rows carry their values only when a Bloom filter of the target's
   * (key, signature) pairs says the pair is certainly not in the target.
   */
  static void prefilterRound(SparkSession spark, Supplier<Dataset<Row>> s, String target, long n) {
    List<String> rest = SyntheticWorkload.COLUMNS.stream().filter(c -> !c.equals("id")).toList();
    Column whole =
        org.apache.spark.sql.functions.struct(
            rest.stream().map(c -> col(c)).toArray(Column[]::new));
    Column op =
        when(col("t_id").isNull(), lit("I"))
            .when(col("id").isNull(), lit("D"))
            .when(col("sig").notEqual(col("t_sig")), lit("U"))
            .otherwise(lit("N"));
    time(
        "narrow diff + refetch",
        () -> {
          Dataset<Row> changed =
              changedOnly(narrowJoin(spark, s.get(), target), op).localCheckpoint(true);
          Dataset<Row> fetched =
              s.get()
                  .join(
                      org.apache.spark.sql.functions.broadcast(
                          changed.filter(col("op").notEqual(lit("D")))),
                      "id")
                  .withColumn("sig", SyntheticWorkload.weaverSignature())
                  .localCheckpoint(true);
          return new Object[] {changed.count(), fetched.count()};
        });
    for (double fpp : List.of(1e-3, 1e-6)) {
      Object[] filter = new Object[1];
      time(
          "bloom of target (id,sig) " + fpp,
          () -> {
            org.apache.spark.util.sketch.BloomFilter f =
                spark
                    .read()
                    .format("delta")
                    .load(target)
                    .stat()
                    .bloomFilter(xxhash64(col("id"), col("sig")), n, fpp);
            filter[0] =
                spark
                    .sparkContext()
                    .broadcast(
                        f,
                        scala.reflect.ClassTag$.MODULE$.apply(
                            org.apache.spark.util.sketch.BloomFilter.class));
            return f.bitSize() / 8;
          });
      @SuppressWarnings("unchecked")
      org.apache.spark.broadcast.Broadcast<org.apache.spark.util.sketch.BloomFilter> bc =
          (org.apache.spark.broadcast.Broadcast<org.apache.spark.util.sketch.BloomFilter>)
              filter[0];
      org.apache.spark.sql.expressions.UserDefinedFunction maybe =
          org.apache.spark.sql.functions.udf(
              (org.apache.spark.sql.api.java.UDF1<Long, Boolean>)
                  h -> bc.value().mightContainLong(h),
              org.apache.spark.sql.types.DataTypes.BooleanType);
      time(
          "prefiltered diff " + fpp,
          () -> {
            Dataset<Row> st = s.get().withColumn("sig", SyntheticWorkload.weaverSignature());
            st =
                st.select(
                    col("id"),
                    col("sig"),
                    when(maybe.apply(xxhash64(col("id"), col("sig"))), lit(null))
                        .otherwise(whole)
                        .as("w"));
            Dataset<Row> t =
                spark
                    .read()
                    .format("delta")
                    .load(target)
                    .select(col("id").as("t_id"), col("sig").as("t_sig"));
            Dataset<Row> changed =
                changedOnly(
                        st.join(t, st.col("id").equalTo(t.col("t_id")), "full_outer"),
                        op,
                        col("sig"),
                        col("w"))
                    .localCheckpoint(true);
            return new Object[] {
              changed.count(),
              changed.filter(col("op").notEqual(lit("D")).and(col("w").isNull())).count()
            };
          });
      bc.destroy();
    }
    time(
        "target positions in diff",
        () -> {
          Dataset<Row> st =
              s.get().select(col("id"), SyntheticWorkload.weaverSignature().as("sig"));
          Dataset<Row> read = spark.read().format("delta").load(target);
          Dataset<Row> t =
              read.select(
                  col("id").as("t_id"),
                  col("sig").as("t_sig"),
                  xxhash64(read.col("_metadata").getField("file_path")).as("f"),
                  read.col("_metadata").getField("row_index").as("r"));
          return changedOnly(
                  st.join(t, st.col("id").equalTo(t.col("t_id")), "full_outer"),
                  op,
                  col("f"),
                  col("r"))
              .localCheckpoint(true)
              .count();
        });
  }

  /**
   * The rows of a full outer join of staging and target whose {@code op} is not "N" (unchanged):
   * the key, the op and the {@code carried} columns.
   */
  private static Dataset<Row> changedOnly(Dataset<Row> joined, Column op, Column... carried) {
    List<Column> columns = new java.util.ArrayList<>();
    columns.add(org.apache.spark.sql.functions.coalesce(col("id"), col("t_id")).as("id"));
    columns.add(col("op"));
    columns.addAll(List.of(carried));
    return joined
        .withColumn("op", op)
        .filter(col("op").notEqual(lit("N")))
        .select(columns.toArray(Column[]::new));
  }

  /** Staging's key and row signature against the target's, full outer, as the diff joins them. */
  static Dataset<Row> narrowJoin(SparkSession spark, Dataset<Row> staging, String target) {
    Dataset<Row> st = staging.select(col("id"), SyntheticWorkload.weaverSignature().as("sig"));
    Dataset<Row> t =
        spark
            .read()
            .format("delta")
            .load(target)
            .select(col("id").as("t_id"), col("sig").as("t_sig"));
    return st.join(t, st.col("id").equalTo(t.col("t_id")), "full_outer");
  }

  static Column compact(Column sig, String mode) {
    return switch (mode) {
      case "unhex" -> unhex(sig);
      case "xxhash" -> xxhash64(sig);
      default -> sig;
    };
  }

  static void time(String label, Supplier<Object> run) {
    // Results are tiny aggregates (one row), printed as a checksum that both forms must agree on.
    long t0 = System.nanoTime();
    Object r = run.get();
    System.err.printf(
        Locale.ROOT,
        "ANATOMY %-28s %7.2f s %s%n",
        label,
        (System.nanoTime() - t0) / 1e9,
        r instanceof Object[] rows ? java.util.Arrays.toString(rows) : String.valueOf(r));
  }
}
