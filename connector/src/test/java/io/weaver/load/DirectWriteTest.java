package io.weaver.load;

import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.T3;
import static io.weaver.load.TestTable.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.exceptions.DeltaConcurrentModificationException;
import io.weaver.catalyst.delta.DirectCommit;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.spec.LoadStatus;
import io.weaver.session.WeaverConf;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The direct writer (docs/engine.md, "Write paths") against the MERGE path: the same loads of two
 * identical Tables, one per path, leave the same rows (values, audit times, signatures, deleted
 * rows; identity values kept across updates), one commit per load; a concurrent commit fails the
 * direct commit as it fails a MERGE; a table the direct writer cannot write is refused when it is
 * asked for and merged under {@code auto}.
 */
class DirectWriteTest {
  @TempDir Path dir;

  private final SparkSession spark = SparkTestSession.get();

  @Test
  void bothPathsLeaveTheSameRows() {
    TestTable direct = new TestTable(TestTable.keyedSpecWithIdentity(dir.resolve("direct")));
    TestTable merge = new TestTable(TestTable.keyedSpecWithIdentity(dir.resolve("merge")));
    List<Dataset<Row>> loads =
        List.of(
            direct.rows(row(1, "a", 10), row(2, "b", 20), row(3, "c", 30), row(4, "d", 40)),
            // update 2, delete 3, insert 5, 1 and 4 unchanged
            direct.rows(row(1, "a", 10), row(2, "B", 20), row(4, "d", 40), row(5, "e", 50)),
            // revive 3, update 5 (to a null), delete 4
            direct.rows(row(1, "a", 10), row(2, "B", 20), row(3, "c", 31), row(5, null, 50)));
    List<java.time.Instant> times = List.of(T1, T2, T3);
    Map<Integer, Long> identities = new TreeMap<>();
    for (int i = 0; i < loads.size(); i++) {
      long before = direct.version();
      int step = i;
      LoadOutcome d = on("direct", () -> direct.load(loads.get(step), times.get(step)));
      LoadOutcome m = on("merge", () -> merge.load(loads.get(step), times.get(step)));
      assertEquals(LoadStatus.SUCCEEDED, d.status(), d.message());
      assertEquals(m.status(), d.status(), d.message());
      assertEquals(m.counts(), d.counts(), "load " + step);
      assertEquals(before + 1, direct.version(), "one commit per load");
      Row commit = direct.lastCommit();
      Map<String, String> parameters = commit.getJavaMap(commit.fieldIndex("operationParameters"));
      assertTrue(
          parameters.toString().contains("weaver direct write"), "a direct commit: " + parameters);
      Map<String, String> mergeParameters =
          merge.lastCommit().getJavaMap(commit.fieldIndex("operationParameters"));
      assertTrue(!mergeParameters.toString().contains("weaver direct write"), "a MERGE");
      assertEquals(withoutIdentity(merge.byId()), withoutIdentity(direct.byId()), "load " + step);
      // Identity values: distinct, and a row keeps its value through updates, deletes, revivals.
      Set<Long> seen = new HashSet<>();
      for (Row r : direct.byId().values()) {
        long sk = r.getLong(r.fieldIndex("sk"));
        assertTrue(seen.add(sk), "distinct identity values");
        Long earlier = identities.putIfAbsent(r.getInt(r.fieldIndex("id")), sk);
        if (earlier != null) {
          assertEquals(earlier.longValue(), sk, "identity kept for id " + r.get(1));
        }
      }
      if (step > 0) {
        Map<String, String> metrics = commit.getJavaMap(commit.fieldIndex("operationMetrics"));
        assertEquals("0", metrics.get("numTargetRowsCopied"), metrics.toString());
        assertTrue(
            Long.parseLong(metrics.getOrDefault("numTargetDeletionVectorsAdded", "0"))
                    + Long.parseLong(metrics.getOrDefault("numTargetDeletionVectorsUpdated", "0"))
                > 0,
            "replaced rows are marked in deletion vectors: " + metrics);
      }
    }
    // Only the changed rows were ever written: 4 inserts, then 3 rows, then 3 (plus nothing else).
    long physical =
        spark
            .read()
            .format("parquet")
            .option("pathGlobFilter", "*.parquet")
            .load(direct.spec.targetPath())
            .count();
    assertEquals(10, physical, "rows in data files, deleted ones included");
  }

  @Test
  void aConcurrentCommitFailsTheDirectCommit() {
    TestTable table = new TestTable(TestTable.keyedSpec(dir, false));
    on("direct", () -> table.load(table.rows(row(1, "a", 10), row(2, "b", 20)), T1));
    long version = table.version();
    Map<Integer, Row> before = table.byId();
    DirectCommit commit = DirectCommit.begin(spark, table.spec.targetPath(), version);
    commit.lastTxnVersion("someone");
    // Another writer compacts the table after this transaction read it.
    spark.sql("OPTIMIZE delta.`" + table.spec.targetPath() + "`").collect();
    long afterOther = table.version();
    assertNotEquals(version, afterOther);
    assertThrows(
        DeltaConcurrentModificationException.class,
        () -> commit.commit(spark, "someone", 1, 0, 0, 0));
    assertEquals(afterOther, table.version(), "nothing committed");
    assertEquals(before, table.byId());
  }

  @Test
  void directIsRefusedWhereItCannotWriteAndAutoMerges() {
    TestTable table = new TestTable(TestTable.keyedSpec(dir, false));
    spark.sql(
        "ALTER TABLE delta.`"
            + table.spec.targetPath()
            + "` SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'false')");
    long version = table.version();
    LoadOutcome refused = on("direct", () -> table.load(table.rows(row(1, "a", 10)), T1));
    assertEquals(LoadStatus.FAILED, refused.status());
    assertTrue(refused.message().contains("deletion vectors are not enabled"), refused.message());
    assertTrue(refused.message().contains(WeaverConf.LOAD_WRITER), refused.message());
    assertEquals(version, table.version(), "nothing written");

    LoadOutcome merged = on("auto", () -> table.load(table.rows(row(1, "a", 10)), T2));
    assertEquals(LoadStatus.SUCCEEDED, merged.status(), merged.message());
    Row commit = table.lastCommit();
    assertEquals("MERGE", commit.getString(commit.fieldIndex("operation")));
    assertTrue(
        !commit.getJavaMap(commit.fieldIndex("operationParameters")).toString().contains("direct"));

    LoadOutcome unknown = on("fast", () -> table.load(table.rows(row(1, "b", 10)), T3));
    assertEquals(LoadStatus.FAILED, unknown.status());
    assertTrue(unknown.message().contains("must be auto, direct or merge"), unknown.message());
  }

  private LoadOutcome on(String writer, Supplier<LoadOutcome> load) {
    TestTable.writer(writer);
    try {
      return load.get();
    } finally {
      TestTable.writer(null);
    }
  }

  /** Every column but the identity, whose generated values differ between two tables. */
  private static Map<Integer, String> withoutIdentity(Map<Integer, Row> rows) {
    Map<Integer, String> values = new TreeMap<>();
    rows.forEach(
        (id, r) -> {
          StringBuilder text = new StringBuilder();
          for (String name : r.schema().fieldNames()) {
            if (!name.equals("sk")) {
              text.append(name).append('=').append(r.get(r.fieldIndex(name))).append(' ');
            }
          }
          values.put(id, text.toString());
        });
    return values;
  }
}
