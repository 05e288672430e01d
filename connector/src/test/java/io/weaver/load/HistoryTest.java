package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.install.BuildOutcome;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code History: true} (docs/table-contract.md, "History"): every load that changes a key closes
 * its open version in {@code Schema.Object__History} and opens a new one — inserts, updates, soft
 * and hard deletes and revivals alike, unchanged rows nothing — exactly once, a stop between the
 * Table's commit and the history's included; the history is read by name; Build adds columns to it
 * and never drops its rows.
 */
class HistoryTest {
  private static final String HEADER = WeaverFixture.KEYED + "History: true\n";
  private static final String LIVE = "9999-12-31 00:00:00.0";

  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Hist");
  private final WeaverWorkspace weaver = fixture.weaver();

  private String rows(String... values) {
    return "select id, name from values " + String.join(", ", values) + " as t(id, name)";
  }

  /**
   * Loads {@code sql} after planning it: the plan's count of history versions must be the number of
   * versions the load then adds to the history.
   */
  private LoadResult load(String sql) {
    LoadPlan plan = weaver.planWith(fixture.qualified("A.Item"), false, fixture.staging(sql));
    long before = historyRows();
    LoadResult last = loadUnplanned(sql);
    assertEquals(
        historyRows() - before,
        plan.historyVersions().orElseThrow(),
        "the plan's history_versions against the versions the load wrote");
    return last;
  }

  private long historyRows() {
    return fixture.spark().table(fixture.item() + ".A.Item__History").count();
  }

  private LoadResult loadUnplanned(String sql) {
    List<LoadResult> results = fixture.loadWith("A.Item", sql);
    LoadResult last = results.get(results.size() - 1);
    assertEquals(LoadStatus.SUCCEEDED, last.status(), last.message());
    return last;
  }

  /** Every version, by key and start: "id name from→to current deleted load". */
  private List<String> versions() {
    List<String> out = new ArrayList<>();
    for (Row r :
        fixture
            .spark()
            .table(fixture.item() + ".A.Item__History")
            .orderBy("id", "valid_from")
            .collectAsList()) {
      out.add(
          r.getAs("id")
              + " "
              + r.getAs("name")
              + " "
              + (r.<Timestamp>getAs("valid_to").toString().equals(LIVE) ? "open" : "closed")
              + (r.<Boolean>getAs("is_current") ? " current" : "")
              + (r.<Boolean>getAs("is_deleted") ? " deleted" : ""));
    }
    return out;
  }

  private void build(String header) {
    fixture.table("A.Item", header, rows("(1, 'a')") + ";\n");
    List<BuildOutcome> built = weaver.build(Scope.all(), false);
    assertTrue(built.stream().noneMatch(b -> b.action().equals("failed")), built.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"merge"})
  void eachChangeClosesAVersionAndOpensOneAndUnchangedRowsAddNothing(String writer) {
    // The history is read from the Table's rows whichever writer wrote them; the other cases run
    // on the default (direct) writer, this one on the MERGE path.
    fixture.spark().conf().set("spark.weaver.load.writer", writer);
    try {
      build(HEADER);
      LoadResult first = load(rows("(1, 'a')", "(2, 'b')", "(3, 'c')"));
      assertEquals(List.of("1 a open current", "2 b open current", "3 c open current"), versions());
      assertEquals(
          3,
          fixture
              .spark()
              .table(fixture.item() + ".A.Item__History")
              .where("load_id = '" + first.loadId() + "'")
              .count(),
          "each version names the load that wrote it");

      load(rows("(1, 'a')", "(2, 'bb')", "(4, 'd')"));
      List<String> afterSecond =
          List.of(
              "1 a open current",
              "2 b closed",
              "2 bb open current",
              "3 c closed",
              "3 c open current deleted",
              "4 d open current");
      assertEquals(afterSecond, versions());

      load(rows("(1, 'a')", "(2, 'bb')", "(4, 'd')"));
      assertEquals(afterSecond, versions(), "a load that changes nothing adds no version");

      load(rows("(1, 'a')", "(2, 'bb')", "(3, 'c')", "(4, 'd')"));
      assertEquals(
          List.of(
              "1 a open current",
              "2 b closed",
              "2 bb open current",
              "3 c closed",
              "3 c closed deleted",
              "3 c open current",
              "4 d open current"),
          versions(),
          "a revival closes the deleted version");
      // A closed version ends where its successor starts.
      assertEquals(
          0,
          fixture
              .spark()
              .sql(
                  "select * from (select valid_to, lead(valid_from) over (partition by id order by"
                      + " valid_from) as next from "
                      + fixture.item()
                      + ".A.Item__History) where next is not null and valid_to <> next")
              .count());
    } finally {
      fixture.spark().conf().unset("spark.weaver.load.writer");
    }
  }

  @Test
  void aHardDeleteIsADeletedVersionAndAReturningKeyOpensANewOne() {
    build(HEADER + "Deletes: hard\n");
    load(rows("(1, 'a')", "(2, 'b')"));
    load(rows("(1, 'a')"));
    assertEquals(List.of("1 a open current", "2 b closed", "2 b open current deleted"), versions());
    load(rows("(1, 'a')", "(2, 'b2')"));
    assertEquals(
        List.of("1 a open current", "2 b closed", "2 b closed deleted", "2 b2 open current"),
        versions());
  }

  @Test
  void aStopBetweenTheTablesCommitAndTheHistorysIsCaughtUpOnceByTheNextLoad() {
    build(HEADER);
    loadUnplanned(rows("(1, 'a')", "(2, 'b')"));
    LoadFaults.arm(LoadFaults.Phase.AFTER_COMMIT);
    assertThrows(
        LoadFaults.InjectedFault.class,
        () -> fixture.loadWith("A.Item", rows("(1, 'a')", "(2, 'bb')")));
    assertEquals(List.of("1 a open current", "2 b open current"), versions(), "history behind");

    // The next load records the stopped one, writes its versions, then its own (the plan counts
    // both: the stopped load's 2 → bb, its own 1 → aa).
    LoadPlan plan =
        weaver.planWith(
            fixture.qualified("A.Item"), false, fixture.staging(rows("(1, 'aa')", "(2, 'bb')")));
    assertEquals(2, plan.historyVersions().orElseThrow(), plan.toString());
    List<LoadResult> next = fixture.loadWith("A.Item", rows("(1, 'aa')", "(2, 'bb')"));
    assertEquals(LoadStatus.SUCCEEDED, next.get(next.size() - 1).status(), next.toString());
    assertEquals(
        List.of("1 a closed", "1 aa open current", "2 b closed", "2 bb open current"), versions());
    // Again the same rows: nothing to write anywhere.
    loadUnplanned(rows("(1, 'aa')", "(2, 'bb')"));
    assertEquals(4, versions().size());
  }

  /**
   * The load-fault suite's steps on a Table with history (docs/reliability.md, "Faults"): a stop or
   * a failure at each step, then the same delivery again, leaves the Table and its history as one
   * uninterrupted load would: each change one closed and one open version, none twice.
   */
  @Test
  void aStopOrFailureAtEachStepOfAHistoryLoadEndsAsOneUninterruptedLoad() {
    build(HEADER);
    loadUnplanned(rows("(1, 'a')", "(2, 'b')"));
    List<String> key2 = new ArrayList<>(List.of("2 b"));
    for (LoadFaults.Phase phase : LoadFaults.Phase.values()) {
      String name = "b" + (phase.ordinal() + 1);
      String delivery = rows("(1, 'a')", "(2, '" + name + "')");
      LoadFaults.arm(phase);
      try {
        fixture.loadWith("A.Item", delivery);
      } catch (LoadFaults.InjectedFault stopped) {
        // The process "died" at the phase; a failure instead is the load's own result.
      } finally {
        LoadFaults.disarm();
      }
      List<LoadResult> rerun = fixture.loadWith("A.Item", delivery);
      LoadResult last = rerun.get(rerun.size() - 1);
      assertTrue(
          last.status() == LoadStatus.SUCCEEDED || last.status() == LoadStatus.NO_WORK,
          phase + ": " + rerun);
      key2.add("2 " + name);
      List<String> expected = new ArrayList<>(List.of("1 a open current"));
      for (int i = 0; i < key2.size(); i++) {
        expected.add(key2.get(i) + (i == key2.size() - 1 ? " open current" : " closed"));
      }
      assertEquals(expected, versions(), "after a fault at " + phase + " and the rerun");
      assertEquals(
          name, fixture.rowsById("A.Item").get(2).getAs("name"), phase + ": the Table's row");
    }
  }

  @Test
  void aRestoreOfTheTableTakesItsHistoryBackToTheSameLoad() {
    build(HEADER);
    loadUnplanned(rows("(1, 'a')", "(2, 'b')"));
    LoadResult second = load(rows("(1, 'a')", "(2, 'bb')"));
    loadUnplanned(rows("(1, 'aa')", "(2, 'bb')"));
    weaver.restore(Scope.table(fixture.qualified("A.Item")), second.loadId());
    assertEquals(List.of("1 a open current", "2 b closed", "2 bb open current"), versions());
    loadUnplanned(rows("(1, 'a')", "(2, 'bb')", "(3, 'c')"));
    assertEquals(
        List.of("1 a open current", "2 b closed", "2 bb open current", "3 c open current"),
        versions(),
        "the undone load's versions are gone and the next load goes on from the restored ones");
  }

  @Test
  void historyDeclaredOnALoadedTableStartsFromItsRows() {
    build(WeaverFixture.KEYED);
    loadUnplanned(rows("(1, 'a')", "(2, 'b')"));
    loadUnplanned(rows("(1, 'a')", "(2, 'bb')"));
    assertEquals(List.of(), historyDependencies(), "no history declared, no history row");
    build(HEADER);
    assertEquals(List.of("A.Item__History <- A.Item"), historyDependencies());
    assertEquals(
        List.of(
            "A.Item__History history key [id, valid_from]: id, name, valid_from, valid_to,"
                + " is_current, is_deleted, load_id"),
        historyDictionary(),
        "the history table's _.TableDictionary and _.ColumnDictionary rows");
    load(rows("(1, 'a')", "(2, 'bb')", "(3, 'c')"));
    assertEquals(List.of("1 a open current", "2 bb open current", "3 c open current"), versions());
    build(WeaverFixture.KEYED);
    assertEquals(
        List.of(), historyDependencies(), "History removed: its row goes, its table stays");
    assertEquals(List.of(), historyDictionary(), "and so do its dictionary rows");
    assertEquals(3, versions().size());
  }

  /** {@code _.Dependency}'s history rows: "history table <- Table". */
  private List<String> historyDependencies() {
    return fixture
        .catalogue(io.weaver.catalogue.CatalogueTable.DEPENDENCY)
        .where("kind = 'history'")
        .collectAsList()
        .stream()
        .map(r -> r.getAs("table_id") + " <- " + r.getAs("depends_on_table_id"))
        .toList();
  }

  /**
   * The history tables' {@code _.TableDictionary} rows, each with its form, key and the columns
   * {@code _.ColumnDictionary} lists for it in order.
   */
  private List<String> historyDictionary() {
    return fixture
        .catalogue(io.weaver.catalogue.CatalogueTable.TABLE_DICTIONARY)
        .where("form = 'history'")
        .collectAsList()
        .stream()
        .map(
            r ->
                r.getAs("table_id")
                    + " "
                    + r.getAs("form")
                    + " key "
                    + r.getList(r.fieldIndex("primary_key"))
                    + ": "
                    + String.join(
                        ", ",
                        fixture
                            .catalogue(io.weaver.catalogue.CatalogueTable.COLUMN_DICTIONARY)
                            .where("table_id = '" + r.getAs("table_id") + "'")
                            .orderBy("ordinal")
                            .collectAsList()
                            .stream()
                            .map(c -> c.<String>getAs("column_name"))
                            .toList()))
        .toList();
  }

  @Test
  void buildAddsColumnsToTheHistoryAndAReplaceKeepsItsVersions() {
    build(HEADER);
    loadUnplanned(rows("(1, 'a')", "(2, 'b')"));
    // An added column: the history gains it, old versions hold null there.
    fixture.table(
        "A.Item", HEADER, "select id, name, 'x' as tag from values (1, 'a') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    fixture.loadWith(
        "A.Item", "select id, name, 'x' as tag from values (1, 'a'), (2, 'b') as t(id, name)");
    assertEquals(
        2,
        fixture
            .spark()
            .table(fixture.item() + ".A.Item__History")
            .where("tag = 'x' and is_current")
            .count(),
        "the versions opened by the load carry the new column");

    // A type change is refused: the history holds the old type.
    fixture.table(
        "A.Item",
        HEADER,
        "select cast(id as string) as id, name, 'x' as tag from values (1, 'a') as t(id, name);\n");
    List<BuildOutcome> refused = weaver.build(Scope.all(), true);
    assertEquals("failed", refused.get(0).action(), refused.toString());
    assertTrue(refused.get(0).message().contains("history"), refused.get(0).message());

    // A destructive change (a column dropped) replaces the Table; its history keeps every version,
    // closed at the replace, and the next load opens new ones.
    fixture.table("A.Item", HEADER, rows("(1, 'a')") + ";\n");
    List<BuildOutcome> replaced = weaver.build(Scope.all(), true);
    assertEquals("replaced", replaced.get(0).action(), replaced.toString());
    long before = fixture.spark().table(fixture.item() + ".A.Item__History").count();
    assertEquals(
        0,
        fixture.spark().table(fixture.item() + ".A.Item__History").where("is_current").count(),
        "no version is current after the replace");
    loadUnplanned(rows("(1, 'a')", "(2, 'b')"));
    assertEquals(before + 2, fixture.spark().table(fixture.item() + ".A.Item__History").count());
  }
}
