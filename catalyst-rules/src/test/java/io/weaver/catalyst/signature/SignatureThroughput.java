package io.weaver.catalyst.signature;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat_ws;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.sha2;

import io.weaver.catalyst.testing.LocalSpark;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Benchmark, not a test: {@link RowSignature} against the naive {@code sha2(concat_ws(...), 256)}
 * over generated rows with ten mixed-type columns, both measured in the same run. The naive form is
 * only a speed baseline — it is ambiguous (nulls vanish, separators collide).
 *
 * <p>Arguments: [rows, default 2000000] [repetitions, default 5].
 */
public final class SignatureThroughput {

  private static final List<String> COLUMNS =
      List.of("s", "i", "l", "d", "db", "f", "bo", "dt", "ts", "s2");

  private SignatureThroughput() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
    int repetitions = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    SparkSession spark = LocalSpark.get();
    try {
      Dataset<Row> source =
          spark
              .range(rows)
              .selectExpr(
                  "IF(id % 17 = 0, NULL, CONCAT('customer-', CAST(id AS STRING))) AS s",
                  "CAST(id % 100000 AS INT) AS i",
                  "id * 7919 AS l",
                  "CAST(id / 100.0 AS DECIMAL(18,2)) AS d",
                  "id / 3.0D AS db",
                  "CAST(id % 1000 AS FLOAT) / 8 AS f",
                  "id % 2 = 0 AS bo",
                  "DATE_ADD(DATE'2000-01-01', CAST(id % 9000 AS INT)) AS dt",
                  "TIMESTAMP_MICROS(1700000000000000 + id * 1000003) AS ts",
                  "UPPER(CONCAT('code-', CAST(id % 977 AS STRING))) AS s2");
      List<Column> columns = new ArrayList<>();
      for (String name : COLUMNS) {
        columns.add(col(name));
      }
      List<Column> asText = new ArrayList<>();
      for (String name : COLUMNS) {
        asText.add(col(name).cast("string"));
      }
      Function<Dataset<Row>, Dataset<Row>> signature =
          df -> df.select(RowSignature.rowSignature(columns).as("sig"));
      Function<Dataset<Row>, Dataset<Row>> baseline =
          df -> df.select(sha2(concat_ws("\u0001", asText.toArray(new Column[0])), 256).as("sig"));

      time(source, signature); // warm-up: JIT, codegen cache
      time(source, baseline);
      long bestSignature = Long.MAX_VALUE;
      long bestBaseline = Long.MAX_VALUE;
      for (int r = 0; r < repetitions; r++) {
        bestSignature = Math.min(bestSignature, time(source, signature));
        bestBaseline = Math.min(bestBaseline, time(source, baseline));
      }
      long bare = Long.MAX_VALUE;
      for (int r = 0; r < repetitions; r++) {
        bare = Math.min(bare, time(source, df -> df.select(lit("x").as("sig"), col("s"))));
      }
      System.out.printf("rows=%d columns=%d best of %d runs%n", rows, COLUMNS.size(), repetitions);
      System.out.printf("generate rows only            : %6d ms%n", bare);
      System.out.printf("row_signature (Weaver)       : %6d ms%n", bestSignature);
      System.out.printf("sha2(concat_ws(...), 256)    : %6d ms%n", bestBaseline);
      System.out.printf(
          "ratio row_signature / baseline: %.2f%n", (double) bestSignature / bestBaseline);
    } finally {
      spark.stop();
    }
  }

  private static long time(Dataset<Row> source, Function<Dataset<Row>, Dataset<Row>> signature) {
    long start = System.nanoTime();
    Row result = signature.apply(source).agg(count(lit(1)), max(col("sig"))).first();
    long millis = (System.nanoTime() - start) / 1_000_000;
    if (result.getLong(0) == 0) {
      throw new IllegalStateException("nothing evaluated");
    }
    return millis;
  }
}
