package io.weaver.bench;

import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The default workload: a keyed target ({@code id} + 10 business columns) generated with {@code
 * spark.range} and expressions, and one snapshot delivery per change fraction (docs/performance.md,
 * "The benchmark").
 */
final class SyntheticWorkload implements Workload {
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

  /**
   * Rules a user of such a table would write, one per action, that every generated row meets
   * (segments come from the four-value array, amounts from a non-negative {@code pmod}, codes are
   * {@code C-} and at most three digits): a load that declares them writes the same rows as one
   * that does not, so the two time only the cost of testing them.
   */
  static final List<TableShape.Expect> EXPECTATIONS =
      List.of(
          new TableShape.Expect(
              "known segment", "segment in ('retail', 'smb', 'enterprise', 'public')", "warn"),
          new TableShape.Expect("non-negative amount", "amount >= 0", "quarantine"),
          new TableShape.Expect("code length", "length(code) between 1 and 40", "fail"));

  static final TableShape SHAPE =
      new TableShape(
          COLUMNS,
          List.of("id"),
          "select "
              + String.join(",\n  ", EXPRESSIONS)
              + "\nfrom (select id, 0 as v from range(0)) as r;\n",
          EXPECTATIONS);

  private final SparkSession spark;
  private final long n;
  private final List<Double> fractions;

  SyntheticWorkload(SparkSession spark, long n, List<Double> fractions) {
    this.spark = spark;
    this.n = n;
    this.fractions = List.copyOf(fractions);
  }

  @Override
  public String name() {
    return "synthetic";
  }

  @Override
  public TableShape shape() {
    return SHAPE;
  }

  @Override
  public long rows() {
    return n;
  }

  @Override
  public Dataset<Row> base() {
    return generate(spark, n, 0, partitions(n));
  }

  @Override
  public int files() {
    return partitions(n);
  }

  @Override
  public List<Delivery> deliveries() {
    // At f = 0 the Table is in its steady state of finding nothing to do
    // (LoadBenchmark.weaverLoad).
    return fractions.stream()
        .map(f -> new Delivery(String.valueOf(f), f, null, f == 0, generate(spark, n, f, files())))
        .toList();
  }

  @Override
  public String title() {
    return String.format(Locale.ROOT, "Snapshot load of %,d target rows", n);
  }

  /** Staging rows for change fraction {@code f}: updates, deletes (absent keys) and inserts. */
  static Dataset<Row> generate(SparkSession spark, long n, double f, int partitions) {
    long inserts = n * Math.round(f * 1_000_000) / 1_000_000 / 4;
    String changed = changed(n, f);
    String deleted = "(" + changed + ") and pmod(xxhash64(id, 7), 4) = 0";
    return spark
        .range(0, n + inserts, 1, partitions)
        .where("not (" + deleted + ")")
        .selectExpr("id", "if(" + changed + ", 1, 0) as v")
        .selectExpr(EXPRESSIONS.toArray(new String[0]));
  }

  /**
   * The existing keys that change (are updated or deleted) in the delivery of fraction {@code f}.
   */
  static String changed(long n, double f) {
    return "id < " + n + " and pmod(xxhash64(id), 1000000) < " + Math.round(f * 1_000_000);
  }

  /** Key ranges of ~100k rows per file, as the masters are written. */
  static int partitions(long n) {
    return (int) Math.max(2, Math.min(200, n / 100_000));
  }

  static Column weaverSignature() {
    return SHAPE.weaverSignature();
  }

  static Column hashSignature() {
    return SHAPE.hashSignature();
  }
}
