package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.session.WeaverConf;
import io.weaver.testing.WeaverFixture;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Deletes: hard} and {@code Deletes: keep} (docs/table-contract.md, "Deletes") through the
 * whole load — the header, Build, the runner, the plan and the Delta commit — as an author declares
 * them: a removed row is gone from the table and comes back as a new row with a new Identity value;
 * kept keys stay live and do not trip the delete gate; each mode writes nothing on a repeated
 * delivery. The random sequences of every mode and mode change are {@link DifferentialLoadTest}'s.
 */
class DeletionModesTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Deletes");
  private final WeaverWorkspace weaver = fixture.weaver();

  private static final String THREE =
      "select id, name from values (1, 'a'), (2, 'b'), (3, 'c') as t(id, name)";
  private static final String TWO = "select id, name from values (1, 'a'), (2, 'b') as t(id, name)";

  @AfterEach
  void defaultWriter() {
    fixture.spark().conf().unset(WeaverConf.LOAD_WRITER);
  }

  private void table(String header) {
    fixture.table("A.Parcel", header, THREE + ";\n");
    weaver.build(Scope.all(), false);
    LoadResult first = load(THREE);
    assertEquals(LoadStatus.SUCCEEDED, first.status(), first.toString());
    assertEquals(3, first.rowsInserted());
  }

  private LoadResult load(String sql) {
    List<LoadResult> results = fixture.loadWith("A.Parcel", sql);
    assertEquals(1, results.size(), results.toString());
    return results.get(0);
  }

  private LoadPlan plan(String sql) {
    return weaver.planWith(fixture.qualified("A.Parcel"), false, fixture.staging(sql));
  }

  private Map<String, String> lastCommitMetrics() {
    Row last = fixture.history("A.Parcel").first();
    return last.getJavaMap(last.fieldIndex("operationMetrics"));
  }

  @ParameterizedTest
  @MethodSource("io.weaver.testing.LongMode#writers")
  void hardRemovesTheRowAndAReturningKeyIsANewRow(String writer) {
    fixture.spark().conf().set(WeaverConf.LOAD_WRITER, writer);
    table("Primary key: id\nIdentity: sk\nDeletes: hard\n" + WeaverFixture.GATES_OFF);
    long firstSk =
        fixture
            .rowsById("A.Parcel")
            .get(3)
            .getLong(fixture.rowsById("A.Parcel").get(3).fieldIndex("sk"));

    LoadPlan planned = plan(TWO);
    assertEquals(1, planned.counts().deleted(), planned.toString());
    LoadResult gone = load(TWO);
    assertEquals(LoadStatus.SUCCEEDED, gone.status(), gone.toString());
    assertEquals(planned.counts(), gone.counts(), "the plan's counts are the load's");
    assertEquals(
        List.of(0L, 1L, 2L),
        List.of(gone.rowsInserted(), gone.rowsDeleted(), gone.rowsUnchanged()));
    assertEquals(2, gone.targetLiveRowsAfter());
    assertEquals(
        List.of(1, 2),
        List.copyOf(fixture.rowsById("A.Parcel").keySet()),
        "row 3 is removed, not marked");
    assertEquals(
        "1", lastCommitMetrics().get("numTargetRowsDeleted"), lastCommitMetrics().toString());

    long version = fixture.version("A.Parcel");
    LoadResult again = load(TWO);
    assertEquals(0, again.counts().changed(), again.toString());
    assertEquals(version, fixture.version("A.Parcel"), "the same delivery twice writes nothing");

    LoadResult back = load(THREE);
    assertEquals(
        List.of(1L, 0L), List.of(back.rowsInserted(), back.rowsRevived()), back.toString());
    Row three = fixture.rowsById("A.Parcel").get(3);
    assertNotEquals(firstSk, three.getLong(three.fieldIndex("sk")), "a new row, a new Identity");
    assertEquals(
        three.getTimestamp(three.fieldIndex("row_insert_datetime")),
        three.getTimestamp(three.fieldIndex("row_update_datetime")),
        "inserted anew, at this load");
  }

  @Test
  void hardOnATableWithoutDeletionVectorsRewritesByMerge() {
    table(
        "Primary key: id\nDeletes: hard\nDelta deletion vectors: false\n"
            + WeaverFixture.GATES_OFF);
    LoadResult gone = load(TWO);
    assertEquals(1, gone.rowsDeleted(), gone.toString());
    assertEquals(List.of(1, 2), List.copyOf(fixture.rowsById("A.Parcel").keySet()));
    assertEquals("MERGE", fixture.history("A.Parcel").first().getAs("operation"));
  }

  @Test
  void hardRemovesTheDeleteKeysOfAnIncrementalTable() {
    table("Primary key: id\nIncremental: true\nDeletes: hard\n" + WeaverFixture.GATES_OFF);
    LoadResult result =
        weaver
            .loadWith(
                fixture.qualified("A.Parcel"),
                false,
                (t, c) ->
                    new StagingProvider.Staging(
                        fixture.spark().sql("select 4 as id, 'd' as name"),
                        Optional.of(fixture.spark().sql("select 1 as id")),
                        Optional.empty()))
            .get(0);
    assertEquals(LoadStatus.SUCCEEDED, result.status(), result.toString());
    assertEquals(List.of(1L, 1L), List.of(result.rowsInserted(), result.rowsDeleted()));
    assertEquals(
        List.of(2, 3, 4),
        List.copyOf(fixture.rowsById("A.Parcel").keySet()),
        "key 1 removed, 2 and 3 kept");
  }

  @Test
  void keepLeavesAbsentKeysLiveAndTheDeleteGateMeasuresNothing() {
    // The default delete gate (5 %) from the first row: a soft snapshot load of one key out of
    // three would be refused.
    table(
        "Primary key: id\nDeletes: keep\nStability row threshold: 0\n"
            + "Update percentage threshold: 100\n");
    LoadResult one = load("select 1 as id, 'a' as name");
    assertEquals(LoadStatus.SUCCEEDED, one.status(), one.toString());
    assertEquals(
        List.of(0L, 0L, 1L), List.of(one.rowsDeleted(), one.rowsUpdated(), one.rowsUnchanged()));
    assertEquals(3, one.targetLiveRowsBefore(), "live rows counted apart: keys 2 and 3 are absent");
    assertEquals(3, one.targetLiveRowsAfter());
    assertEquals(0, one.counts().changed(), "nothing written");
    Map<Integer, Row> rows = fixture.rowsById("A.Parcel");
    assertEquals(List.of(1, 2, 3), List.copyOf(rows.keySet()));
    for (Row r : rows.values()) {
      assertEquals(
          "9999-12-31 00:00:00.0",
          r.getTimestamp(r.fieldIndex("row_delete_datetime")).toString(),
          "every row live: " + r);
    }
    LoadResult changed = load("select 3 as id, 'c2' as name");
    assertEquals(LoadStatus.SUCCEEDED, changed.status(), changed.toString());
    assertEquals(1, changed.rowsUpdated(), changed.toString());
  }
}
