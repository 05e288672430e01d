package io.weaver.load;

import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.GateVerdict;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.FileDigests;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan (docs/plan.md) runs a load to its gates and stops: its counts are the counts of the load
 * that follows it with the same staging, for every row of the change table, a gate refusal,
 * rejections, an incremental load with delete keys and an unkeyed replace; the target's files are
 * byte-for-byte the same after it.
 */
class LoadPlanTest {
  @TempDir Path dir;

  private TestTable seeded(LoadSpec spec) {
    TestTable table = new TestTable(spec);
    LoadOutcome first =
        table.load(
            table.rows(row(1, "a", 10), row(2, "b", 20), row(3, "c", 30), row(4, "d", 40)), T1);
    assertEquals(LoadStatus.SUCCEEDED, first.status(), first.message());
    return table;
  }

  /** Plans {@code request}, checks it wrote nothing, then loads it; returns (plan, load). */
  private LoadOutcome[] planThenLoad(TestTable table, LoadRequest request) {
    Map<String, String> before = FileDigests.of(Path.of(table.spec.targetPath()));
    long version = table.version();
    LoadOutcome plan = LoadEngine.apply(table.spark, request.asPlan(), FaultPoints.installed());
    assertFalse(plan.committed(), plan.message());
    assertEquals(version, table.version(), "a plan makes no Delta version");
    assertEquals(before, FileDigests.of(Path.of(table.spec.targetPath())), "a plan writes no file");
    LoadOutcome load = LoadEngine.apply(table.spark, request, FaultPoints.installed());
    return new LoadOutcome[] {plan, load};
  }

  private static void assertSameCounts(LoadOutcome plan, LoadOutcome load) {
    assertEquals(load.status(), plan.status(), plan.message() + " / " + load.message());
    assertEquals(load.counts(), plan.counts(), plan.message() + " / " + load.message());
  }

  @Test
  void everyRowOfTheChangeTableIsPredicted() {
    TestTable table = seeded(TestTable.keyedSpec(dir, false));
    // Soft-delete 4 first, so the next load can revive it.
    LoadOutcome[] deletes =
        planThenLoad(
            table,
            table.request(table.rows(row(1, "a", 10), row(2, "b", 20), row(3, "c", 30)), T1));
    assertSameCounts(deletes[0], deletes[1]);
    assertEquals(1, deletes[0].rowsDeleted());

    // insert 5, unchanged 1, update 2, revive 4, delete 3 (absent from a snapshot).
    LoadOutcome[] all =
        planThenLoad(
            table,
            table.request(
                table.rows(row(1, "a", 10), row(2, "B", 20), row(4, "d", 40), row(5, "e", 50)),
                T2));
    assertSameCounts(all[0], all[1]);
    ChangeCounts c = all[0].counts();
    assertEquals(
        List.of(1L, 1L, 1L, 1L, 1L),
        List.of(c.inserted(), c.updated(), c.revived(), c.deleted(), c.unchanged()),
        c.toString());
    assertTrue(all[0].message().contains("would write 4 changed rows"), all[0].message());
    assertTrue(all[1].committed());

    // Nothing changes: the plan says so, and so does the load (the checksum pass first).
    LoadRequest same =
        table.request(
            table.rows(row(1, "a", 10), row(2, "B", 20), row(4, "d", 40), row(5, "e", 50)), T2);
    LoadOutcome[] unchanged = planThenLoad(table, same);
    assertSameCounts(unchanged[0], unchanged[1]);
    assertEquals(4, unchanged[0].rowsUnchanged());
  }

  @Test
  void aRefusalIsPredictedWithEachGatesMeasurement() {
    LoadSpec base = TestTable.keyedSpec(dir, false);
    TestTable table =
        seeded(
            base.toBuilder().deletePercentageThreshold(50).updatePercentageThreshold(25).build());
    // 2 of 4 deleted (50 % >= 50: refuse), 1 of 4 updated (25 % >= 25: refuse).
    LoadRequest request = table.request(table.rows(row(1, "A", 10), row(2, "b", 20)), T2);
    LoadOutcome[] refused = planThenLoad(table, request);
    assertEquals(LoadStatus.REFUSED, refused[0].status(), refused[0].message());
    assertEquals(refused[1].status(), refused[0].status());
    assertEquals(refused[1].message(), refused[0].message());
    assertEquals(refused[1].gates(), refused[0].gates());
    GateVerdict delete = refused[0].gates().get(0);
    GateVerdict update = refused[0].gates().get(1);
    assertEquals("delete", delete.gate());
    assertEquals(2, delete.rows());
    assertEquals(4, delete.liveRows());
    assertEquals(50.0, delete.percent());
    assertEquals(50, delete.threshold());
    assertEquals(GateVerdict.REFUSE, delete.verdict());
    assertEquals(GateVerdict.REFUSE, update.verdict());
    // A refused plan keeps the counts the gates measured.
    assertEquals(2, refused[0].rowsDeleted());
    assertEquals(1, refused[0].rowsUpdated());

    // Waived, the plan and the load agree on every count, and the gates say waived.
    LoadRequest waived =
        new LoadRequest(
            request.spec(),
            request.staging(),
            Optional.empty(),
            T2,
            request.loadId(),
            request.loadSequence(),
            true,
            request.commitMetadata());
    LoadOutcome[] applied = planThenLoad(table, waived);
    assertSameCounts(applied[0], applied[1]);
    assertEquals(GateVerdict.WAIVED, applied[0].gates().get(0).verdict());
    assertEquals(applied[1].warnings(), applied[0].warnings());
  }

  @Test
  void rejectionsArePredictedRowByRow() {
    LoadSpec base = TestTable.keyedSpec(dir, true);
    TestTable table = seeded(base.toBuilder().uniqueKeys(List.of(List.of("name"))).build());
    LoadRequest request =
        table.request(
            table.rows(
                row(5, "a", 50), // name held by live row 1
                row(6, "z", 60), // z twice among incoming rows
                row(7, "z", 70),
                row(8, "y", 80)),
            T2);
    LoadOutcome[] both = planThenLoad(table, request);
    assertSameCounts(both[0], both[1]);
    assertEquals(3, both[0].rowsRejected());
    assertEquals(
        rejected(both[1].rejections().orElseThrow()), rejected(both[0].rejections().orElseThrow()));
  }

  @Test
  void anIncrementalLoadWithDeleteKeysIsPredicted() {
    TestTable table = seeded(TestTable.keyedSpec(dir, true));
    LoadRequest base = table.request(table.rows(row(2, "B", 20), row(6, "f", 60)), T2);
    LoadRequest request =
        new LoadRequest(
            base.spec(),
            base.staging(),
            Optional.of(table.keys(1, 9)),
            T2,
            base.loadId(),
            base.loadSequence(),
            false,
            base.commitMetadata());
    LoadOutcome[] both = planThenLoad(table, request);
    assertSameCounts(both[0], both[1]);
    ChangeCounts c = both[0].counts();
    // 6 inserted, 2 updated, 1 deleted by key, 9 unknown (nothing), 3 and 4 untouched.
    assertEquals(List.of(1L, 1L, 1L), List.of(c.inserted(), c.updated(), c.deleted()));
    assertEquals(4, c.liveBefore());
    assertEquals(4, c.liveAfter());
  }

  @Test
  void anUnkeyedReplaceIsPredicted() {
    LoadSpec base = TestTable.keyedSpec(dir, false);
    LoadSpec unkeyed =
        base.toBuilder()
            .primaryKey(List.of())
            .notNull(List.of("id"))
            .comparisonColumns(List.of())
            .build();
    TestTable table = seeded(unkeyed);
    LoadOutcome[] both =
        planThenLoad(table, table.request(table.rows(row(7, "x", 1), row(8, "y", 2)), T2));
    assertSameCounts(both[0], both[1]);
    assertEquals(2, both[0].rowsInserted());
    assertEquals(4, both[0].rowsDeleted());
    assertTrue(both[0].gates().isEmpty());
  }

  private static Map<String, String> rejected(Dataset<Row> rejections) {
    Map<String, String> byKey = new TreeMap<>();
    for (Row r : rejections.collectAsList()) {
      byKey.put(r.getString(1), r.getString(0) + " " + r.getString(2));
    }
    return byKey;
  }
}
