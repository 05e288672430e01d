package io.weaver.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.GateVerdict;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.FileDigests;
import io.weaver.testing.WeaverFixture;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A workspace plan (docs/plan.md) over built and loaded Tables: every file of the lakehouse —
 * tables, Delta logs, the catalogue, {@code _.LoadState} — is byte-for-byte the same afterwards,
 * and the loads that follow report exactly the planned counts; a dependant of a changing Table says
 * it was planned against current rows; a refusal is a failure of the plan.
 */
class WorkspacePlanTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Plan");
  private final WeaverWorkspace weaver = fixture.weaver();

  private static final String SITE_HEADER =
      "Primary key: id\nStability row threshold: 0\nDelete percentage threshold: 50\n"
          + "Update percentage threshold: 100\n";

  private void sites(String values) {
    fixture.table(
        "A.Site", SITE_HEADER, "select id, name from values " + values + " as t(id, name);\n");
  }

  @Test
  void aPlanWritesNothingAndTheLoadsThatFollowMatchIt() {
    sites("(1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
    fixture.table(
        "A.SiteName", WeaverFixture.KEYED, "select id, upper(name) as name from A.Site;\n");
    assertTrue(weaver.build(Scope.all(), false).stream().noneMatch(o -> o.isFailure()));
    weaver
        .load(Scope.all(), false)
        .forEach(r -> assertEquals(LoadStatus.SUCCEEDED, r.status(), r.message()));

    // Update 2, delete 4, insert 5.
    sites("(1, 'a'), (2, 'B'), (3, 'c'), (5, 'e')");
    Map<String, String> before = FileDigests.of(fixture.lake());
    List<TablePlan> plans = weaver.plan(Scope.all(), false, false);
    assertEquals(before, FileDigests.of(fixture.lake()), "a plan changes no file of the lakehouse");

    Map<String, TablePlan> byTable =
        plans.stream().collect(Collectors.toMap(TablePlan::tableId, Function.identity()));
    TablePlan site = byTable.get(fixture.qualified("A.Site"));
    TablePlan name = byTable.get(fixture.qualified("A.SiteName"));
    assertEquals(List.of(site, name), plans, "load order");
    assertEquals("unchanged", site.build().action());
    assertEquals(LoadStatus.SUCCEEDED, site.load().status(), site.load().message());
    assertEquals(1, site.load().counts().inserted());
    assertEquals(1, site.load().counts().updated());
    assertEquals(1, site.load().counts().deleted());
    GateVerdict delete = site.load().gates().get(0);
    assertEquals(25.0, delete.percent());
    assertEquals(GateVerdict.PASS, delete.verdict());
    assertTrue(
        name.load().notes().stream().anyMatch(n -> n.contains("current rows of " + site.tableId())),
        name.load().notes().toString());
    // Planned against A.Site's current rows: nothing changes for it yet.
    assertEquals(0, name.load().counts().changed());

    List<LoadResult> loads = weaver.load(Scope.table(site.tableId()), false);
    LoadResult loaded = loads.get(0);
    assertEquals(
        List.of(1L, 1L, 1L, 0L, 2L, 0L, 4L, 4L),
        List.of(
            loaded.rowsInserted(),
            loaded.rowsUpdated(),
            loaded.rowsDeleted(),
            loaded.rowsRevived(),
            loaded.rowsUnchanged(),
            loaded.rowsRejected(),
            loaded.targetLiveRowsBefore(),
            loaded.targetLiveRowsAfter()),
        loaded.message());
    assertEquals(site.load().counts().inserted(), loaded.rowsInserted());
    assertEquals(site.load().counts().unchanged(), loaded.rowsUnchanged());
    assertEquals(site.load().counts().liveAfter(), loaded.targetLiveRowsAfter());

    // Now A.SiteName's plan sees the new rows, and its load agrees.
    TablePlan again = weaver.plan(Scope.table(name.tableId()), false, false).get(0);
    LoadResult nameLoad = weaver.load(Scope.table(name.tableId()), false).get(0);
    assertEquals(again.load().counts().inserted(), nameLoad.rowsInserted());
    assertEquals(again.load().counts().updated(), nameLoad.rowsUpdated());
    assertEquals(again.load().counts().deleted(), nameLoad.rowsDeleted());
    assertEquals(again.load().counts().unchanged(), nameLoad.rowsUnchanged());
    // Row 5 at least is new to it (whether it sees row 4's soft delete depends on the session's
    // extension, which this module's tests do not install).
    assertTrue(nameLoad.rowsInserted() >= 1, nameLoad.message());
  }

  @Test
  void aRefusalOrANewTableIsSaidPlainly() {
    sites("(1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
    weaver.build(Scope.all(), false);
    weaver.load(Scope.all(), false);
    // Half the rows gone: the delete gate (50 %) refuses; a new Table is created by Build.
    sites("(1, 'a'), (2, 'b')");
    fixture.table("A.Depot", WeaverFixture.KEYED, "select 1 as id;\n");
    Map<String, String> before = FileDigests.of(fixture.lake());
    List<TablePlan> plans = weaver.plan(Scope.all(), false, false);
    assertEquals(before, FileDigests.of(fixture.lake()), "a plan changes no file of the lakehouse");
    Map<String, TablePlan> byTable =
        plans.stream().collect(Collectors.toMap(TablePlan::tableId, Function.identity()));
    TablePlan site = byTable.get(fixture.qualified("A.Site"));
    assertEquals(LoadStatus.REFUSED, site.load().status());
    assertTrue(site.isFailure());
    assertTrue(
        site.load().message().contains("Delete percentage threshold is 50"), site.load().message());
    assertEquals(GateVerdict.REFUSE, site.load().gates().get(0).verdict());
    TablePlan depot = byTable.get(fixture.qualified("A.Depot"));
    assertEquals("created", depot.build().action());
    assertEquals(LoadStatus.SKIPPED, depot.load().status());
    assertTrue(depot.load().message().contains("Build would create"), depot.load().message());

    // The load that follows is refused with the same message; waived, the plan says waived.
    LoadResult refused = weaver.load(Scope.table(site.tableId()), false).get(0);
    assertEquals(LoadStatus.REFUSED, refused.status());
    assertEquals(site.load().message(), refused.message());
    TablePlan waived = weaver.plan(Scope.table(site.tableId()), false, true).get(0);
    assertEquals(LoadStatus.SUCCEEDED, waived.load().status());
    assertEquals(GateVerdict.WAIVED, waived.load().gates().get(0).verdict());
    assertEquals(2, waived.load().counts().deleted());
  }
}
