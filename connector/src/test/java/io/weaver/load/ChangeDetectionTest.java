package io.weaver.load;

import static io.weaver.load.TestTable.LIVE;
import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.row;
import static io.weaver.load.TestTable.text;
import static io.weaver.load.TestTable.time;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.records.LoadOutcome;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.ManagedColumns;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every row of the change table (docs/table-contract.md, "Load"), checked on the Delta table
 * itself.
 */
class ChangeDetectionTest {
  @TempDir Path dir;

  private TestTable seeded(boolean incremental) {
    TestTable table = new TestTable(TestTable.keyedSpec(dir, incremental));
    LoadOutcome first =
        table.load(table.rows(row(1, "a", 10), row(2, "b", 20), row(3, "c", 30)), T1);
    assertEquals(LoadStatus.SUCCEEDED, first.status(), first.message());
    assertEquals(3, first.rowsInserted());
    assertTrue(first.committed());
    return table;
  }

  @Test
  void insertSetsAllAuditColumnsAndSignature() {
    TestTable table = seeded(false);
    Map<Integer, Row> rows = table.byId();
    assertEquals(3, rows.size());
    Row one = rows.get(1);
    assertEquals("a", text(one, "name"));
    assertEquals(T1, time(one, ManagedColumns.INSERT_TIME));
    assertEquals(T1, time(one, ManagedColumns.UPDATE_TIME));
    assertEquals(LIVE, time(one, ManagedColumns.DELETE_TIME));
    assertTrue(text(one, ManagedColumns.SIGNATURE).matches("[0-9a-f]{64}"));
    assertNotEquals(
        text(one, ManagedColumns.SIGNATURE), text(rows.get(2), ManagedColumns.SIGNATURE));
    assertEquals(0, table.lastCommit().getLong(0) - 1, "first load is version 1");
  }

  @Test
  void unchangedRowsAreNotRewrittenAndNoCommitHappens() {
    TestTable table = seeded(false);
    Map<Integer, Row> before = table.byId();
    long version = table.version();
    LoadOutcome outcome =
        table.load(table.rows(row(1, "a", 10), row(2, "b", 20), row(3, "c", 30)), T2);
    assertEquals(LoadStatus.SUCCEEDED, outcome.status(), outcome.message());
    assertEquals(3, outcome.rowsUnchanged());
    assertEquals(0, outcome.rowsInserted() + outcome.rowsUpdated() + outcome.rowsDeleted());
    assertFalse(outcome.committed());
    assertEquals(version, outcome.deltaVersion());
    assertEquals(version, table.version());
    assertEquals(before, table.byId());
  }

  @Test
  void updateChangesValuesUpdateTimeAndSignatureOnly() {
    TestTable table = seeded(false);
    Map<Integer, Row> before = table.byId();
    LoadOutcome outcome =
        table.load(table.rows(row(1, "a", 10), row(2, "B", 20), row(3, "c", 30)), T2);
    assertEquals(LoadStatus.SUCCEEDED, outcome.status(), outcome.message());
    assertEquals(1, outcome.rowsUpdated());
    assertEquals(2, outcome.rowsUnchanged());
    assertTrue(outcome.committed());
    Row two = table.byId().get(2);
    assertEquals("B", text(two, "name"));
    assertEquals(T1, time(two, ManagedColumns.INSERT_TIME));
    assertEquals(T2, time(two, ManagedColumns.UPDATE_TIME));
    assertEquals(LIVE, time(two, ManagedColumns.DELETE_TIME));
    assertNotEquals(
        text(before.get(2), ManagedColumns.SIGNATURE), text(two, ManagedColumns.SIGNATURE));
    assertEquals(before.get(1), table.byId().get(1));
    assertEquals(before.get(3), table.byId().get(3));
    Map<String, String> metrics =
        table.lastCommit().getJavaMap(table.lastCommit().fieldIndex("operationMetrics"));
    assertEquals("MERGE", table.lastCommit().getString(table.lastCommit().fieldIndex("operation")));
    assertEquals("0", metrics.get("numTargetRowsCopied"), metrics.toString());
    assertEquals("1", metrics.get("numTargetRowsUpdated"), metrics.toString());
    assertEquals("1", metrics.get("numSourceRows"), "the source holds only the changed row");
  }

  @Test
  void nonIncrementalAbsentKeyIsDeletedAndThenRevived() {
    TestTable table = seeded(false);
    LoadOutcome deleted = table.load(table.rows(row(1, "a", 10), row(3, "c", 30)), T2);
    assertEquals(1, deleted.rowsDeleted(), deleted.message());
    assertEquals(3, deleted.targetLiveRowsBefore());
    assertEquals(2, deleted.targetLiveRowsAfter());
    Row two = table.byId().get(2);
    assertEquals("b", text(two, "name"), "a deleted row keeps its data");
    assertEquals(T1, time(two, ManagedColumns.INSERT_TIME));
    assertEquals(T1, time(two, ManagedColumns.UPDATE_TIME));
    assertEquals(T2, time(two, ManagedColumns.DELETE_TIME));

    LoadOutcome revived =
        table.load(table.rows(row(1, "a", 10), row(2, "b2", 21), row(3, "c", 30)), TestTable.T3);
    assertEquals(1, revived.rowsRevived(), revived.message());
    assertEquals(0, revived.rowsInserted());
    assertEquals(3, revived.targetLiveRowsAfter());
    two = table.byId().get(2);
    assertEquals("b2", text(two, "name"));
    assertEquals(T1, time(two, ManagedColumns.INSERT_TIME));
    assertEquals(TestTable.T3, time(two, ManagedColumns.UPDATE_TIME));
    assertEquals(LIVE, time(two, ManagedColumns.DELETE_TIME));
  }

  @Test
  void incrementalAbsentKeyIsUnchangedAndDeleteKeysDelete() {
    TestTable table = seeded(true);
    Map<Integer, Row> before = table.byId();
    LoadOutcome partial = table.load(table.rows(row(4, "d", 40)), T2);
    assertEquals(1, partial.rowsInserted(), partial.message());
    assertEquals(0, partial.rowsDeleted());
    assertEquals(before.get(1), table.byId().get(1));
    assertEquals(3, partial.targetLiveRowsBefore());
    assertEquals(4, partial.targetLiveRowsAfter());

    // live -> delete; absent (9) and already deleted keys -> nothing
    LoadOutcome deletes = table.loadWithDeletes(table.rows(), table.keys(2, 9), TestTable.T3);
    assertEquals(LoadStatus.SUCCEEDED, deletes.status(), deletes.message());
    assertEquals(1, deletes.rowsDeleted());
    assertEquals(4, deletes.targetLiveRowsBefore());
    assertEquals(3, deletes.targetLiveRowsAfter());
    assertEquals(TestTable.T3, time(table.byId().get(2), ManagedColumns.DELETE_TIME));
    assertFalse(table.byId().containsKey(9));
    long version = table.version();
    LoadOutcome again =
        table.loadWithDeletes(table.rows(), table.keys(2, 9), TestTable.T3.plusSeconds(5));
    assertEquals(0, again.rowsDeleted(), again.message());
    assertFalse(again.committed());
    assertEquals(version, table.version());
    assertEquals(TestTable.T3, time(table.byId().get(2), ManagedColumns.DELETE_TIME));
  }

  @Test
  void incrementalLoadOfNoRowsCountsTheTargetAndWritesNothing() {
    // The bundled example's shape (Parcel.Event's second load): an incremental Table whose
    // staging turns out empty when it runs (a filter on the last load time) and whose delete keys
    // are already deleted. The target's live rows come from a count of their own; an observation
    // on the join's target side never fired for the example (MainJobTest hung).
    TestTable table = seeded(true);
    assertEquals(1, table.loadWithDeletes(table.rows(), table.keys(3), T2).rowsDeleted());
    long version = table.version();
    Dataset<Row> none =
        table
            .spark
            .range(5)
            .selectExpr("cast(id as int) as id", "'x' as name", "cast(id as int) as weight")
            .filter("id > 100");
    LoadOutcome outcome =
        assertTimeoutPreemptively(
            Duration.ofMinutes(3), () -> table.loadWithDeletes(none, table.keys(3), TestTable.T3));
    assertEquals(LoadStatus.SUCCEEDED, outcome.status(), outcome.message());
    assertEquals(0, outcome.rowsInserted() + outcome.rowsUpdated() + outcome.rowsDeleted());
    assertEquals(2, outcome.targetLiveRowsBefore());
    assertEquals(2, outcome.targetLiveRowsAfter());
    assertFalse(outcome.committed());
    assertEquals(version, table.version());
  }

  @Test
  void loadTimestampDoesNotDependOnTheSessionTimeZone() {
    TestTable table = new TestTable(TestTable.keyedSpec(dir, false));
    String zone = table.spark.conf().get("spark.sql.session.timeZone");
    table.spark.conf().set("spark.sql.session.timeZone", "America/New_York");
    try {
      assertEquals(LoadStatus.SUCCEEDED, table.load(table.rows(row(1, "a", 10)), T1).status());
    } finally {
      table.spark.conf().set("spark.sql.session.timeZone", zone);
    }
    Row one = table.byId().get(1);
    assertEquals(T1, time(one, ManagedColumns.INSERT_TIME));
    assertEquals(LIVE, time(one, ManagedColumns.DELETE_TIME));
  }

  @Test
  void noStagingAndNoDeleteKeysIsNoWork() {
    TestTable table = seeded(true);
    long version = table.version();
    LoadOutcome outcome = table.load(null, T2);
    assertEquals(LoadStatus.NO_WORK, outcome.status());
    assertEquals(version, outcome.deltaVersion());
    assertEquals(3, outcome.targetLiveRowsAfter());
    assertEquals(version, table.version());
  }
}
