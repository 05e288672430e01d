package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.util.List;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Retrying a load under the same load id (docs/reliability.md, "Idempotent retry"): a load id in
 * history is never applied again and the retry says so; a load id that committed without history is
 * recovered first; a load id that never got anywhere simply runs.
 */
class LoadIdRetryTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Retry");
  private final WeaverWorkspace weaver = fixture.weaver();

  @BeforeEach
  void setUp() {
    fixture.table(
        "A.Site",
        "Primary key: id\nStability row threshold: 0\n",
        "select 1 as id, 'a' as name;\n");
    weaver.build(Scope.all(), false);
  }

  private List<LoadResult> load(String loadId, String sql) {
    return weaver.loadWith(fixture.qualified("A.Site"), false, fixture.staging(sql), loadId);
  }

  private long commits() {
    return fixture
        .history("A.Site")
        .where(functions.col("userMetadata").contains("weaver_load"))
        .count();
  }

  private List<String> history(String loadId) {
    return fixture
        .catalogue(CatalogueTable.LOAD_HISTORY)
        .where(functions.col("load_id").equalTo(loadId))
        .select("status")
        .collectAsList()
        .stream()
        .map(r -> r.getString(0))
        .toList();
  }

  @Test
  void retryOfAnAppliedLoadIdWritesNothingAndSaysSo() {
    List<LoadResult> first = load("nightly-2026-11-30", "select 1 as id, 'a' as name");
    assertEquals(LoadStatus.SUCCEEDED, first.get(0).status(), first.get(0).message());
    assertEquals("nightly-2026-11-30", first.get(0).loadId());
    assertEquals(1, commits());

    List<LoadResult> retry = load("nightly-2026-11-30", "select 1 as id, 'CHANGED' as name");
    assertEquals(1, retry.size(), retry.toString());
    assertEquals(LoadStatus.SUCCEEDED, retry.get(0).status());
    assertTrue(retry.get(0).message().contains("already applied"), retry.get(0).message());
    assertEquals(first.get(0).deltaVersion(), retry.get(0).deltaVersion());
    assertEquals(1, commits(), "the retry wrote no data");
    assertEquals(List.of("succeeded"), history("nightly-2026-11-30"), "nor history");
  }

  @Test
  void retryOfALoadIdThatCommittedWithoutHistoryIsRecoveredNotReapplied() {
    LoadFaults.arm(LoadFaults.Phase.AFTER_COMMIT);
    assertThrows(
        LoadFaults.InjectedFault.class, () -> load("run-7", "select 1 as id, 'a' as name"));
    assertEquals(1, commits());
    List<LoadResult> retry = load("run-7", "select 1 as id, 'a' as name");
    assertEquals(
        List.of("recovered", "succeeded"),
        retry.stream().map(loaded -> loaded.status().text()).toList());
    assertTrue(retry.get(1).message().contains("already applied"), retry.get(1).message());
    assertEquals(1, commits());
    assertEquals(List.of("recovered"), history("run-7"));
  }

  @Test
  void retryOfALoadIdThatStoppedBeforeItsCommitRuns() {
    LoadFaults.arm(LoadFaults.Phase.AFTER_DIFF);
    assertThrows(
        LoadFaults.InjectedFault.class, () -> load("run-8", "select 1 as id, 'a' as name"));
    assertEquals(0, commits());
    List<LoadResult> retry = load("run-8", "select 1 as id, 'a' as name");
    assertEquals(
        List.of("succeeded"), retry.stream().map(loaded -> loaded.status().text()).toList());
    assertEquals(1, retry.get(0).rowsInserted());
    assertEquals(1, commits());
    assertEquals(List.of("succeeded"), history("run-8"));
  }

  @Test
  void retryOfAFailedLoadIdIsRefusedAndAnInvalidIdIsRejected() {
    List<LoadResult> failed = load("run-9", "select 1 as id, 'a' as name union all select 1, 'b'");
    assertEquals(LoadStatus.FAILED, failed.get(0).status());
    List<LoadResult> retry = load("run-9", "select 1 as id, 'a' as name");
    assertEquals(LoadStatus.FAILED, retry.get(0).status());
    assertTrue(retry.get(0).message().contains("new load id"), retry.get(0).message());
    assertEquals(List.of("failed"), history("run-9"), "the refused retry is not an attempt");
    assertEquals(0, commits());

    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class, () -> load("x'; drop table y; --", "select 1 as id"));
    assertTrue(bad.getMessage().contains("load id"), bad.getMessage());
  }
}
