package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A load stopped or failed at each phase (docs/reliability.md, "Faults"), then run again: the table
 * ends in the expected state, the change is applied exactly once (one Delta commit carries it),
 * history tells what happened with each load id once, and the next load runs normally.
 */
class LoadFaultTest {
  private static final String KEYED = WeaverFixture.KEYED;
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Fault");
  private final String item = fixture.item();
  private final WeaverWorkspace weaver = fixture.weaver();

  private void table(String header) {
    fixture.table(
        "A.Site", header, "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    List<LoadResult> first = weaver.load(Scope.all(), false);
    assertEquals(LoadStatus.SUCCEEDED, first.get(0).status(), first.toString());
  }

  /** The second load: 2 changes name, 3 arrives (1 stays). */
  private List<LoadResult> second() {
    return loadRows("select 1 as id, 'a' as name union all select 2, 'B' union all select 3, 'c'");
  }

  private List<LoadResult> loadRows(String sql) {
    return fixture.loadWith("A.Site", sql);
  }

  private long version() {
    return fixture.version("A.Site");
  }

  /** Live rows, id to name. */
  private Map<Integer, String> live() {
    Map<Integer, String> rows = new TreeMap<>();
    fixture
        .liveRows("A.Site")
        .select("id", "name")
        .collectAsList()
        .forEach(r -> rows.put(r.getInt(0), r.getString(1)));
    return rows;
  }

  private List<Row> history() {
    return fixture
        .catalogue(CatalogueTable.LOAD_HISTORY)
        .orderBy("started_at", "load_id")
        .collectAsList();
  }

  private List<String> statuses() {
    return history().stream().map(r -> r.getString(r.fieldIndex("status"))).toList();
  }

  private long stateSequence() {
    Row state = fixture.catalogue(CatalogueTable.LOAD_STATE).first();
    return state.getLong(state.fieldIndex("load_sequence"));
  }

  /** Delta commits that carry a Weaver receipt (each applied load commits exactly once). */
  private long receiptCommits() {
    return fixture
        .history("A.Site")
        .where(functions.col("userMetadata").contains("weaver_load"))
        .count();
  }

  /** The checks every scenario ends with, then one more load that must run normally. */
  private void assertConvergedAndUsable() {
    assertEquals(Map.of(1, "a", 2, "B", 3, "c"), live());
    assertEquals(2, receiptCommits(), "the second load's change is committed exactly once");
    List<Row> history = history();
    List<String> ids = history.stream().map(r -> r.getString(r.fieldIndex("load_id"))).toList();
    assertEquals(ids.size(), new HashSet<>(ids).size(), "load ids are unique in history: " + ids);
    Row insertTimeOf3 =
        fixture.rows("A.Site").where("id = 3").select("row_insert_datetime").first();
    assertFalse(insertTimeOf3.isNullAt(0));
    // No orphaned state: the next load changes 1 and is an ordinary load.
    List<LoadResult> next =
        loadRows("select 1 as id, 'A' as name union all select 2, 'B' union all select 3, 'c'");
    assertEquals(1, next.size(), next.toString());
    assertEquals(LoadStatus.SUCCEEDED, next.get(0).status(), next.get(0).message());
    assertEquals(1, next.get(0).rowsUpdated());
    assertEquals(2, next.get(0).rowsUnchanged());
    assertEquals(Map.of(1, "A", 2, "B", 3, "c"), live());
    assertEquals(3, receiptCommits());
    assertEquals(3, stateSequence());
  }

  @Test
  void stopAfterTheDiffWritesNothingAndTheRerunAppliesOnce() throws IOException {
    table(KEYED);
    long before = version();
    LoadFaults.arm(LoadFaults.Phase.AFTER_DIFF);
    assertThrows(LoadFaults.InjectedFault.class, this::second);
    assertEquals(before, version(), "nothing committed");
    assertEquals(List.of("succeeded"), statuses(), "the stopped load left no history");
    assertEquals(1, stateSequence());

    List<LoadResult> rerun = second();
    assertEquals(1, rerun.size(), rerun.toString());
    assertEquals(LoadStatus.SUCCEEDED, rerun.get(0).status());
    assertEquals(1, rerun.get(0).rowsInserted());
    assertEquals(1, rerun.get(0).rowsUpdated());
    assertEquals(List.of("succeeded", "succeeded"), statuses());
    assertConvergedAndUsable();
  }

  @Test
  void taskFailureDuringTheMergeFailsCleanlyAndTheRerunAppliesOnce() throws IOException {
    table(KEYED);
    long before = version();
    LoadFaults.arm(LoadFaults.Phase.DURING_WRITE);
    List<LoadResult> failed = second();
    assertFalse(LoadFaults.armed(), "the fault fired inside the write job");
    assertEquals(LoadStatus.FAILED, failed.get(0).status());
    assertTrue(
        failed.get(0).message().contains("injected failure at DURING_WRITE"),
        failed.get(0).message());
    assertTrue(failed.get(0).message().startsWith(item + ".A.Site"), failed.get(0).message());
    assertEquals(before, version(), "a failed write commits nothing");
    assertEquals(Map.of(1, "a", 2, "b"), live());
    assertEquals(List.of("succeeded", "failed"), statuses());
    assertEquals(1, stateSequence(), "a failed load does not advance the state");

    List<LoadResult> rerun = second();
    assertEquals(LoadStatus.SUCCEEDED, rerun.get(0).status(), rerun.toString());
    assertEquals(1, rerun.get(0).rowsInserted());
    assertEquals(List.of("succeeded", "failed", "succeeded"), statuses());
    assertConvergedAndUsable();
  }

  @Test
  void stopAfterTheCommitIsRecoveredNotReapplied() throws IOException {
    table(KEYED);
    long before = version();
    LoadFaults.arm(LoadFaults.Phase.AFTER_COMMIT);
    assertThrows(LoadFaults.InjectedFault.class, this::second);
    assertEquals(before + 1, version(), "the commit landed");
    assertEquals(List.of("succeeded"), statuses());

    List<LoadResult> rerun = second();
    assertEquals(
        List.of("recovered", "succeeded"),
        rerun.stream().map(loaded -> loaded.status().text()).toList());
    assertEquals(1, rerun.get(0).rowsInserted(), "recovered from the commit's metrics");
    assertEquals(1, rerun.get(0).rowsUpdated());
    assertEquals(0, rerun.get(1).rowsInserted() + rerun.get(1).rowsUpdated());
    assertEquals(3, rerun.get(1).rowsUnchanged());
    assertEquals(List.of("succeeded", "recovered", "succeeded"), statuses());
    assertConvergedAndUsable();
  }

  /**
   * A stopped load that inserted, updated, soft-deleted and revived rows is recovered with each
   * kind counted as such, on both write paths: Delta's metrics count soft deletes and revivals as
   * MERGE updates, so the split comes from the counts the commit carries in its receipt.
   */
  @ParameterizedTest
  @MethodSource("io.weaver.testing.LongMode#writers")
  void stopAfterTheCommitIsRecoveredWithEachKindOfChange(String writer) throws IOException {
    // On the portable path (the load matrix) there is no direct writer: loads there are MERGEs.
    Assumptions.assumeFalse(
        writer.equals("direct") && "portable".equals(System.getProperty("weaver.delta.loads")),
        "the portable path writes with MERGE only");
    table(KEYED);
    TestTable.writer(writer);
    try {
      // 3 arrives, then goes (soft-deleted), so that the stopped load can revive it.
      loadRows("select 1 as id, 'a' as name union all select 2, 'b' union all select 3, 'c'");
      loadRows("select 1 as id, 'a' as name union all select 2, 'b'");
      assertEquals(Map.of(1, "a", 2, "b"), live());
      // The stopped load: 1 updated, 2 soft-deleted, 3 revived, 4 and 5 inserted.
      String stopped =
          "select 1 as id, 'A' as name union all select 3, 'c' union all select 4, 'd'"
              + " union all select 5, 'e'";
      LoadFaults.arm(LoadFaults.Phase.AFTER_COMMIT);
      assertThrows(LoadFaults.InjectedFault.class, () -> loadRows(stopped));
      assertEquals(Map.of(1, "A", 3, "c", 4, "d", 5, "e"), live());

      List<LoadResult> rerun = loadRows(stopped);
      assertEquals(
          List.of("recovered", "succeeded"),
          rerun.stream().map(loaded -> loaded.status().text()).toList());
      LoadResult recovered = rerun.get(0);
      assertEquals(2, recovered.rowsInserted(), recovered.toString());
      assertEquals(1, recovered.rowsUpdated(), recovered.toString());
      assertEquals(1, recovered.rowsDeleted(), recovered.toString());
      assertEquals(1, recovered.rowsRevived(), recovered.toString());
      assertEquals(0, recovered.rowsUnchanged(), recovered.toString());
      assertEquals(2, recovered.targetLiveRowsBefore(), recovered.toString());
      assertEquals(4, recovered.targetLiveRowsAfter(), recovered.toString());
      Row recorded =
          fixture.catalogue(CatalogueTable.LOAD_HISTORY).where("status = 'recovered'").first();
      assertEquals(2, recorded.getLong(recorded.fieldIndex("rows_inserted")));
      assertEquals(1, recorded.getLong(recorded.fieldIndex("rows_updated")));
      assertEquals(1, recorded.getLong(recorded.fieldIndex("rows_deleted")));
      assertEquals(1, recorded.getLong(recorded.fieldIndex("rows_revived")));
      assertEquals(4, rerun.get(1).rowsUnchanged());
    } finally {
      TestTable.writer(null);
    }
  }

  @Test
  void failedHistoryWriteAfterTheCommitIsReportedNotRecordedAsFailed() throws IOException {
    table(KEYED);
    long before = version();
    LoadFaults.arm(LoadFaults.Phase.DURING_HISTORY);
    List<LoadResult> result = second();
    assertEquals(1, result.size(), result.toString());
    LoadResult r = result.get(0);
    assertEquals(LoadStatus.SUCCEEDED, r.status(), "the data is in: the load did not fail");
    assertEquals(before + 1, r.deltaVersion());
    assertTrue(
        r.warnings().stream()
            .anyMatch(w -> w.contains("could not be written") && w.contains("recovered")),
        r.warnings().toString());
    assertEquals(List.of("succeeded"), statuses(), "no 'failed' row for a committed load");

    List<LoadResult> rerun = second();
    assertEquals(
        List.of("recovered", "succeeded"),
        rerun.stream().map(loaded -> loaded.status().text()).toList());
    assertEquals(r.loadId(), rerun.get(0).loadId(), "the receipt names the committed load");
    assertEquals(List.of("succeeded", "recovered", "succeeded"), statuses());
    assertConvergedAndUsable();
  }

  @Test
  void stopAfterHistoryRepairsTheStateWithoutASecondHistoryRow() throws IOException {
    table(KEYED);
    LoadFaults.arm(LoadFaults.Phase.AFTER_HISTORY);
    assertThrows(LoadFaults.InjectedFault.class, this::second);
    assertEquals(List.of("succeeded", "succeeded"), statuses());
    assertEquals(1, stateSequence(), "the state was not written");

    List<LoadResult> rerun = second();
    assertEquals(
        List.of("succeeded"), rerun.stream().map(loaded -> loaded.status().text()).toList());
    assertEquals(3, rerun.get(0).rowsUnchanged());
    assertEquals(2, stateSequence(), "the state is repaired from the commit receipt");
    assertEquals(List.of("succeeded", "succeeded", "succeeded"), statuses());
    assertConvergedAndUsable();
  }

  @Test
  void taskFailureDuringAnUnkeyedReplaceKeepsTheOldRows() throws IOException {
    table("");
    long before = version();
    LoadFaults.arm(LoadFaults.Phase.DURING_WRITE);
    List<LoadResult> failed = second();
    assertEquals(LoadStatus.FAILED, failed.get(0).status(), failed.toString());
    assertEquals(before, version());
    assertEquals(Map.of(1, "a", 2, "b"), live());
    List<LoadResult> rerun = second();
    assertEquals(LoadStatus.SUCCEEDED, rerun.get(0).status(), rerun.toString());
    assertEquals(3, rerun.get(0).rowsInserted());
    assertEquals(2, rerun.get(0).rowsDeleted());
    assertEquals(Map.of(1, "a", 2, "B", 3, "c"), live());
    assertEquals(List.of("succeeded", "failed", "succeeded"), statuses());
  }
}
