package io.weaver.load;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.records.LoadOutcome;
import io.weaver.load.spec.LoadSpec;
import io.weaver.metadata.ManagedColumns;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Date;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The MERGE's target-side key filter (a Bloom filter of the change set's keys) with keys of several
 * columns and types, and the key types that go without it: every update, revive and soft delete
 * must still find its row, and no key may end up twice in the table.
 */
class MergeKeyFilterTest {
  private static final Instant T1 = TestTable.T1;
  private static final Instant T2 = TestTable.T2;
  private static final Instant T3 = TestTable.T3;

  @TempDir Path dir;

  /**
   * On both write paths: the MERGE carries the filter to its joins, the direct writer to its read
   * of soft-deleted rows.
   */
  @ParameterizedTest
  @MethodSource("io.weaver.testing.LongMode#writers")
  void aKeyOfStringDateAndDecimalFindsEveryChangedRow(String writer) {
    TestTable.writer(writer);
    try {
      keyOfStringDateAndDecimal(writer);
    } finally {
      TestTable.writer(null);
    }
  }

  private void keyOfStringDateAndDecimal(String writer) {
    StructType schema =
        new StructType()
            .add("code", DataTypes.StringType, false)
            .add("day", DataTypes.DateType, false)
            .add("lot", DataTypes.createDecimalType(10, 2), false)
            .add("qty", DataTypes.IntegerType);
    TestTable t = new TestTable(spec(schema, List.of("code", "day", "lot")));
    Date d1 = Date.valueOf("2024-03-01");
    Date d2 = Date.valueOf("2024-03-02");
    BigDecimal l1 = new BigDecimal("1.50");
    BigDecimal l2 = new BigDecimal("2.25");

    LoadOutcome first =
        t.load(
            t.rows(
                TestTable.row("a", d1, l1, 1),
                TestTable.row("a", d2, l1, 2),
                TestTable.row("b", d1, l2, 3),
                TestTable.row("é", d2, l2, 4),
                TestTable.row("c", d1, l1, 5)),
            T1);
    assertEquals(5, first.rowsInserted());

    // Same code and day, another lot: a different key. One unchanged, two updated, one deleted,
    // one inserted.
    LoadOutcome second =
        t.load(
            t.rows(
                TestTable.row("a", d1, l1, 1),
                TestTable.row("a", d2, l1, 20),
                TestTable.row("é", d2, l2, 40),
                TestTable.row("c", d1, l1, 5),
                TestTable.row("a", d1, l2, 6)),
            T2);
    assertEquals(
        List.of(1L, 2L, 1L, 2L, 5L, 5L),
        List.of(
            second.rowsInserted(),
            second.rowsUpdated(),
            second.rowsDeleted(),
            second.rowsUnchanged(),
            second.targetLiveRowsBefore(),
            second.targetLiveRowsAfter()),
        "inserted, updated, deleted, unchanged, live before, live after");

    if (writer.equals("merge")) {
      // The MERGE carried the key filter; Delta's history shows it by its label, not its bytes.
      Row commit =
          io.delta.tables.DeltaTable.forPath(t.spark, t.spec.targetPath()).history(1).first();
      String predicate =
          commit
              .<String, String>getJavaMap(commit.fieldIndex("operationParameters"))
              .get("predicate");
      assertTrue(predicate.contains("weaver_key_filter(xxhash64("), predicate);
      assertTrue(predicate.contains(" keys, "), predicate);
      assertTrue(predicate.length() < 1000, predicate);
    }

    // The deleted key comes back.
    LoadOutcome third =
        t.load(
            t.rows(
                TestTable.row("a", d1, l1, 1),
                TestTable.row("a", d2, l1, 20),
                TestTable.row("é", d2, l2, 40),
                TestTable.row("c", d1, l1, 5),
                TestTable.row("a", d1, l2, 6),
                TestTable.row("b", d1, l2, 30)),
            T3);
    assertEquals(1, third.rowsRevived());
    assertEquals(0, third.rowsInserted());

    Map<String, String> table = state(t);
    assertEquals(
        Map.of(
            "a|2024-03-01|1.50", "1 live",
            "a|2024-03-02|1.50", "20 live",
            "b|2024-03-01|2.25", "30 live",
            "é|2024-03-02|2.25", "40 live",
            "c|2024-03-01|1.50", "5 live",
            "a|2024-03-01|2.25", "6 live"),
        table);
  }

  @Test
  void aDoubleKeyLoadsWithoutTheFilter() {
    StructType schema =
        new StructType()
            .add("reading", DataTypes.DoubleType, false)
            .add("label", DataTypes.StringType);
    TestTable t = new TestTable(spec(schema, List.of("reading")));
    t.load(
        t.rows(TestTable.row(0.5, "half"), TestTable.row(1.0, "one"), TestTable.row(2.0, "two")),
        T1);
    LoadOutcome second = t.load(t.rows(TestTable.row(0.5, "HALF"), TestTable.row(1.0, "one")), T2);
    assertEquals(1, second.rowsUpdated());
    assertEquals(1, second.rowsDeleted());
    long rows = t.spark.read().format("delta").load(t.spec.targetPath()).count();
    assertEquals(3, rows, "no key written twice");
  }

  private LoadSpec spec(StructType schema, List<String> key) {
    List<String> comparison =
        java.util.Arrays.stream(schema.fieldNames()).filter(c -> !key.contains(c)).toList();
    return LoadSpec.builder("Shop.Stock.Lots", dir.resolve("Lots").toString(), schema)
        .primaryKey(key)
        .comparisonColumns(comparison)
        .build();
  }

  /** Key → "qty live|deleted" over every row of the table (deleted ones included). */
  private static Map<String, String> state(TestTable t) {
    Map<String, String> out = new TreeMap<>();
    List<Row> rows =
        t.spark
            .read()
            .format("delta")
            .load(t.spec.targetPath())
            .select(
                col("code"),
                col("day").cast("string"),
                col("lot").cast("string"),
                col("qty"),
                col(ManagedColumns.DELETE_TIME))
            .collectAsList();
    for (Row r : rows) {
      String key = r.getString(0) + "|" + r.getString(1) + "|" + r.getString(2);
      String value =
          r.get(3) + (r.getTimestamp(4).toInstant().equals(TestTable.LIVE) ? " live" : " deleted");
      if (out.put(key, value) != null) {
        throw new AssertionError("key " + key + " is in the table twice");
      }
    }
    return out;
  }
}
