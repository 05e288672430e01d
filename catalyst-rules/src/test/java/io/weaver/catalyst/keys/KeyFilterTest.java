package io.weaver.catalyst.keys;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.xxhash64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.catalyst.testing.LocalSpark;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.sketch.BloomFilter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyFilter} in real Spark jobs: no key of the set is ever filtered out, few others pass,
 * generated and interpreted code agree, and its SQL text stays short whatever the set's size.
 */
class KeyFilterTest {
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.get();
  }

  /** The multiples of 7 below 70,000 (10,000 keys) as a key set at 1 % false positives. */
  private static KeyFilter.KeySet sevens() {
    BloomFilter filter =
        spark
            .range(0, 70_000, 7)
            .stat()
            .bloomFilter(xxhash64(col("id").cast("string")), 10_000, 0.01);
    return KeyFilter.KeySet.of(filter, 10_000);
  }

  private static long[] counts(Column filter) {
    Dataset<Row> all = spark.range(0, 200_000).toDF();
    Row row =
        all.filter(filter)
            .selectExpr("count_if(id % 7 = 0 AND id < 70000) AS in_set", "count(*) AS passed")
            .first();
    return new long[] {row.getLong(0), row.getLong(1)};
  }

  @Test
  void everyKeyOfTheSetPassesAndFewOthersDo() {
    KeyFilter.KeySet keys = sevens();
    Column filter = KeyFilter.mightContain(xxhash64(col("id").cast("string")), keys);
    long[] generated = counts(filter);
    assertEquals(10_000, generated[0], "a key of the set was filtered out");
    long others = generated[1] - generated[0];
    assertTrue(others < 190_000 * 0.02, "too many false positives: " + others);

    String before = spark.conf().get("spark.sql.codegen.factoryMode", "FALLBACK");
    spark.conf().set("spark.sql.codegen.wholeStage", "false");
    spark.conf().set("spark.sql.codegen.factoryMode", "NO_CODEGEN");
    try {
      long[] interpreted = counts(filter);
      assertEquals(generated[0], interpreted[0]);
      assertEquals(generated[1], interpreted[1], "generated and interpreted code disagree");
    } finally {
      spark.conf().set("spark.sql.codegen.wholeStage", "true");
      spark.conf().set("spark.sql.codegen.factoryMode", before);
    }

    long[] negated = counts(not(filter));
    assertEquals(0, negated[0]);
    assertEquals(200_000 - generated[1], negated[1]);
  }

  @Test
  void aNullHashIsNotInTheSet() {
    Column filter = KeyFilter.mightContain(lit(null).cast("long"), sevens());
    Dataset<Row> flags = spark.range(0, 10).select(filter.as("f"));
    assertEquals(10, flags.filter("f = false").count(), "a null hash must give false, not null");
  }

  @Test
  void sqlTextNamesTheSetByALabelNotItsBytes() {
    KeyFilter.KeySet keys = sevens();
    assertTrue(keys.sizeInBytes() > 10_000, "10,000 keys take about 12 kB: " + keys.sizeInBytes());
    Column filter = KeyFilter.mightContain(xxhash64(col("id")), keys);
    Dataset<Row> filtered = spark.range(0, 10).toDF().filter(filter);
    String sql =
        ((org.apache.spark.sql.catalyst.plans.logical.Filter) filtered.queryExecution().analyzed())
            .condition()
            .sql();
    assertTrue(sql.startsWith("weaver_key_filter(xxhash64("), sql);
    assertTrue(sql.contains("10000 keys, "), sql);
    assertTrue(sql.length() < 200, sql);
    String plan = filtered.queryExecution().executedPlan().toString();
    assertTrue(plan.contains("weaver_key_filter"), plan);
    assertTrue(plan.length() < 2_000, "the plan prints the set's bytes: " + plan.length());

    KeyFilter.KeySet same = sevens();
    assertEquals(keys, same);
    assertEquals(keys.hashCode(), same.hashCode());
    BloomFilter other = BloomFilter.create(10_000, 0.01);
    other.putLong(1L);
    assertNotEquals(keys, KeyFilter.KeySet.of(other, 1));
  }
}
