package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.session.WeaverConf;
import io.weaver.testing.WeaverFixture;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Sequence column} (docs/table-contract.md, "Sequence column") through the whole load as an
 * author declares it, on both write paths: an older row is not applied and counted stale, an equal
 * value applies only when the row differs, the newest of a delivery's rows of one key wins, a tie
 * at the newest value or a null value fails the load and writes nothing, and the plan predicts the
 * counts exactly.
 */
class SequenceColumnTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Sequence");
  private final WeaverWorkspace weaver = fixture.weaver();

  private static final String FIRST =
      "select * from values (1, 'a', 10), (2, 'b', 10), (3, 'c', 10) as t(id, name, ts)";

  @AfterEach
  void defaultWriter() {
    fixture.spark().conf().unset(WeaverConf.LOAD_WRITER);
  }

  private void table(String header) {
    fixture.table("A.Event", header, FIRST + ";\n");
    weaver.build(Scope.all(), false);
    LoadResult first = load(FIRST);
    assertEquals(LoadStatus.SUCCEEDED, first.status(), first.toString());
    assertEquals(3, first.rowsInserted());
  }

  private LoadResult load(String sql) {
    List<LoadResult> results = fixture.loadWith("A.Event", sql);
    assertEquals(1, results.size(), results.toString());
    return results.get(0);
  }

  private LoadPlan plan(String sql) {
    return weaver.planWith(fixture.qualified("A.Event"), false, fixture.staging(sql));
  }

  private String name(int id) {
    Row row = fixture.rowsById("A.Event").get(id);
    return row.getString(row.fieldIndex("name"));
  }

  @ParameterizedTest
  @MethodSource("io.weaver.testing.LongMode#writers")
  void olderRowsAreStaleEqualOnesApplyWhenTheyDifferAndTheNewestOfAKeyWins(String writer) {
    fixture.spark().conf().set(WeaverConf.LOAD_WRITER, writer);
    table("Primary key: id\nSequence column: ts\n" + WeaverFixture.GATES_OFF);
    // 1: older than the table's row (stale); 2: same value, other name (applies); 3: the same row
    // (unchanged); 4: three rows, two tied below the newest (the newest is inserted, two stale).
    String second =
        "select * from values (1, 'a-old', 5), (2, 'b-fix', 10), (3, 'c', 10),"
            + " (4, 'd1', 1), (4, 'd1b', 1), (4, 'd3', 3) as t(id, name, ts)";
    LoadPlan planned = plan(second);
    LoadResult loaded = load(second);
    assertEquals(LoadStatus.SUCCEEDED, loaded.status(), loaded.toString());
    assertEquals(planned.counts(), loaded.counts(), "the plan's counts are the load's");
    assertEquals(
        List.of(1L, 1L, 0L, 1L, 3L),
        List.of(
            loaded.rowsInserted(),
            loaded.rowsUpdated(),
            loaded.rowsDeleted(),
            loaded.rowsUnchanged(),
            loaded.rowsStale()),
        loaded.toString());
    assertEquals(3, loaded.targetLiveRowsBefore());
    assertEquals(4, loaded.targetLiveRowsAfter());
    assertEquals(List.of("a", "b-fix", "c", "d3"), List.of(name(1), name(2), name(3), name(4)));
    assertEquals(3L, loaded.toMap().get("rows_stale"));
    Row history =
        fixture
            .catalogue(CatalogueTable.LOAD_HISTORY)
            .where(functions.col("load_id").equalTo(loaded.loadId()))
            .first();
    assertEquals(3L, history.getLong(history.fieldIndex("rows_stale")), "in _.LoadHistory");
    assertTrue(
        history
            .getString(history.fieldIndex("message"))
            .endsWith(
                " 3 stale row(s) not applied: a newer row of their key exists (e.g."
                    + " {\"id\":1,\"ts\":5}, {\"id\":4,\"ts\":1})."),
        "two of them sampled in the load's history: " + history);
    assertTrue(planned.message().contains("3 stale row(s)"), planned.message());

    long version = fixture.version("A.Event");
    LoadResult again = load(second);
    assertEquals(0, again.counts().changed(), again.toString());
    assertEquals(3, again.rowsStale(), "the same rows are stale again");
    assertEquals(version, fixture.version("A.Event"), "the same delivery twice writes nothing");
  }

  /** Classification only: the writers' part is the first test's and the differential test's. */
  @Test
  void aRowOlderThanASoftDeletedRowDoesNotReviveIt() {
    table("Primary key: id\nSequence column: ts\n" + WeaverFixture.GATES_OFF);
    LoadResult gone = load("select * from values (1, 'a', 10), (2, 'b', 10) as t(id, name, ts)");
    assertEquals(1, gone.rowsDeleted(), gone.toString());

    String older =
        "select * from values (1, 'a', 10), (2, 'b', 10), (3, 'c0', 4) as t(id, name, ts)";
    LoadResult stale = load(older);
    assertEquals(
        List.of(0L, 1L, 2L),
        List.of(stale.rowsRevived(), stale.rowsStale(), stale.rowsUnchanged()));
    assertEquals(2, stale.targetLiveRowsAfter(), stale.toString());

    LoadResult newer =
        load("select * from values (1, 'a', 10), (2, 'b', 10), (3, 'c2', 12) as t(id, name, ts)");
    assertEquals(
        List.of(1L, 0L), List.of(newer.rowsRevived(), newer.rowsStale()), newer.toString());
    assertEquals("c2", name(3));
  }

  @Test
  void aTieAtAKeysNewestValueOrANullValueFailsTheLoadAndWritesNothing() {
    table("Primary key: id\nSequence column: ts\n" + WeaverFixture.GATES_OFF);
    long version = fixture.version("A.Event");
    LoadResult tied =
        load(
            "select * from values (1, 'a', 10), (2, 'b', 10), (3, 'x', 11), (3, 'y', 11),"
                + " (3, 'z', 2) as t(id, name, ts)");
    assertEquals(LoadStatus.FAILED, tied.status(), tied.toString());
    assertTrue(
        tied.message().contains("repeat their key's highest `ts`")
            && tied.message().contains("\"id\":3")
            && tied.message().contains("\"ts\":11"),
        tied.message());
    assertEquals(version, fixture.version("A.Event"), "a failed load writes nothing");

    LoadResult nullValue =
        load(
            "select * from values (1, 'a', 10), (2, 'b', cast(null as int)), (3, 'c', 10)"
                + " as t(id, name, ts)");
    assertEquals(LoadStatus.FAILED, nullValue.status(), nullValue.toString());
    assertTrue(nullValue.message().contains("null(s) in sequence column"), nullValue.message());
    assertEquals(version, fixture.version("A.Event"));
  }

  @Test
  void anIncrementalTableIgnoresAnOlderRowAndKeepsUnmentionedKeys() {
    table("Primary key: id\nIncremental: true\nSequence column: ts\n" + WeaverFixture.GATES_OFF);
    LoadResult result =
        load("select * from values (2, 'b-late', 9), (3, 'c-new', 11) as t(id, name, ts)");
    assertEquals(
        List.of(1L, 1L, 3L, 3L),
        List.of(
            result.rowsUpdated(),
            result.rowsStale(),
            result.targetLiveRowsBefore(),
            result.targetLiveRowsAfter()),
        result.toString());
    assertEquals(List.of("a", "b", "c-new"), List.of(name(1), name(2), name(3)));
  }
}
