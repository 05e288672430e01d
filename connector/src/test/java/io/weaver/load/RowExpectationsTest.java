package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import io.weaver.session.WeaverConf;
import io.weaver.testing.WeaverFixture;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Row expectations (docs/table-contract.md, "Expectations") through the whole load — Check's model,
 * Build, the runner and the catalogue — on keyed snapshot, incremental and unkeyed Tables: {@code
 * warn} loads and samples, {@code quarantine} keeps the row out and its key's target row as it is,
 * {@code fail} writes nothing; the counts reach {@code _.LoadExpectation} and the plan.
 */
class RowExpectationsTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Expect");
  private final WeaverWorkspace weaver = fixture.weaver();

  /** Quarantines a weight that is not positive (null included), warns on an unnamed parcel. */
  private static final String EXPECTATIONS =
      """
      Expectations:
        positive weight:
          rule: weight > 0
          on violation: quarantine
        named:
          rule: name is not null
          on violation: warn
      """;

  private static final String FIRST =
      "select id, name, weight from values (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)"
          + " as t(id, name, weight)";

  @AfterEach
  void defaultWriter() {
    fixture.spark().conf().unset(WeaverConf.LOAD_WRITER);
  }

  private void table(String header) {
    fixture.table("A.Parcel", header + EXPECTATIONS, FIRST + ";\n");
    weaver.build(Scope.all(), false);
    List<LoadResult> first = weaver.load(Scope.all(), false);
    assertEquals(LoadStatus.SUCCEEDED, first.get(0).status(), first.toString());
    assertEquals(3, first.get(0).rowsInserted());
  }

  private LoadResult load(String sql) {
    List<LoadResult> results = fixture.loadWith("A.Parcel", sql);
    assertEquals(1, results.size(), results.toString());
    return results.get(0);
  }

  private List<Row> quarantine(String loadId) {
    return fixture
        .catalogue(CatalogueTable.LOAD_QUARANTINE)
        .where(functions.col("load_id").equalTo(loadId))
        .orderBy("key_json")
        .collectAsList();
  }

  private Map<String, Long> expectationCounts(String loadId) {
    Map<String, Long> counts = new TreeMap<>();
    fixture
        .catalogue(CatalogueTable.LOAD_EXPECTATION)
        .where(functions.col("load_id").equalTo(loadId))
        .collectAsList()
        .forEach(
            r ->
                counts.put(
                    r.getString(r.fieldIndex("expectation"))
                        + "/"
                        + r.getString(r.fieldIndex("action")),
                    r.getLong(r.fieldIndex("rows_violating"))));
    return counts;
  }

  private static boolean live(Row row) {
    return row.getTimestamp(row.fieldIndex("row_delete_datetime"))
        .toInstant()
        .equals(java.time.Instant.parse("9999-12-31T00:00:00Z"));
  }

  @ParameterizedTest
  @MethodSource("io.weaver.testing.LongMode#writers")
  void aQuarantinedRowLeavesItsKeysTargetRowExactlyAsItIs(String writer) {
    fixture.spark().conf().set(WeaverConf.LOAD_WRITER, writer);
    table(WeaverFixture.KEYED);
    Row before = fixture.rowsById("A.Parcel").get(2);

    // 2 arrives with a negative weight, 3 is absent, 4 is new (without a name: a warning), 5 is
    // new but weighs nothing.
    String delivery =
        "select id, name, weight from values (1, 'a', 10), (2, 'B', -5), (4, null, 40),"
            + " (5, 'e', null) as t(id, name, weight)";
    LoadPlan plan =
        weaver.planWith(fixture.qualified("A.Parcel"), false, fixture.staging(delivery));
    LoadResult second = load(delivery);
    assertEquals(plan.counts(), second.counts(), "the plan predicts the load's counts");
    assertEquals(
        second.expectations().stream().map(ExpectationCount::toMap).toList(),
        plan.expectations().stream().map(ExpectationCount::toMap).toList());
    assertEquals(2L, plan.toMap().get("rows_quarantined"));

    assertEquals(LoadStatus.SUCCEEDED, second.status(), second.message());
    assertEquals(1, second.rowsInserted());
    assertEquals(0, second.rowsUpdated());
    assertEquals(1, second.rowsDeleted(), "3 is absent; 2 is quarantined, not absent");
    assertEquals(1, second.rowsUnchanged());
    assertEquals(2, second.rowsQuarantined());
    assertEquals(3, second.targetLiveRowsBefore());
    assertEquals(3, second.targetLiveRowsAfter());
    Map<Integer, Row> after = fixture.rowsById("A.Parcel");
    assertEquals(before, after.get(2), "the target row of a quarantined key is not touched");
    assertTrue(live(after.get(2)));
    assertTrue(!live(after.get(3)), "an absent key is still soft-deleted");
    assertTrue(after.containsKey(4), "a warned row is loaded");
    assertTrue(!after.containsKey(5), "a quarantined new key is not inserted");

    List<Row> kept = quarantine(second.loadId());
    assertEquals(2, kept.size(), kept.toString());
    assertEquals("{\"id\":2}", kept.get(0).getString(kept.get(0).fieldIndex("key_json")));
    assertEquals(
        "{\"id\":2,\"name\":\"B\",\"weight\":-5}",
        kept.get(0).getString(kept.get(0).fieldIndex("row_json")));
    assertEquals(
        List.of("positive weight"), kept.get(0).getList(kept.get(0).fieldIndex("expectations")));
    assertEquals("{\"id\":5}", kept.get(1).getString(kept.get(1).fieldIndex("key_json")));
    assertEquals(
        "{\"id\":5,\"name\":\"e\",\"weight\":null}",
        kept.get(1).getString(kept.get(1).fieldIndex("row_json")),
        "the whole row, a null column as JSON null");
    assertEquals(
        Map.of("named/warn", 1L, "positive weight/quarantine", 2L),
        expectationCounts(second.loadId()));
    assertEquals(
        List.of("{\"id\":4}"),
        second.expectations().stream()
            .filter(e -> e.expectation().equals("named"))
            .findFirst()
            .orElseThrow()
            .sampleKeys());

    // The same delivery again: nothing to write, the same two rows quarantined again.
    LoadResult again = load(delivery);
    assertEquals(0, again.counts().changed(), again.toString());
    assertEquals(2, again.rowsQuarantined());
    assertEquals(before, fixture.rowsById("A.Parcel").get(2));
  }

  /** The header of each kind of Table: keyed snapshot, keyed incremental, unkeyed. */
  private static String header(String kind) {
    return switch (kind) {
      case "snapshot" -> WeaverFixture.KEYED;
      case "incremental" -> "Primary key: id\nIncremental: true\n" + WeaverFixture.GATES_OFF;
      default -> WeaverFixture.GATES_OFF;
    };
  }

  /** A keyed snapshot Table is {@link #aQuarantinedRowLeavesItsKeysTargetRowExactlyAsItIs}'s. */
  @ParameterizedTest
  @ValueSource(strings = {"incremental", "unkeyed"})
  void warnLoadsTheRowAndQuarantineKeepsItOutOnOtherKindsOfTable(String kind) {
    table(header(kind));
    Row before = fixture.rowsById("A.Parcel").get(2);
    // 2 arrives with a weight of zero (quarantine), 6 without a name (warn), 5 with a null
    // weight (quarantine: a rule that is null is violated), 1 unchanged, 3 absent.
    LoadResult second =
        load(
            "select id, name, weight from values (1, 'a', 10), (2, 'B', 0), (5, 'e', null),"
                + " (6, null, 60) as t(id, name, weight)");
    assertEquals(LoadStatus.SUCCEEDED, second.status(), second.message());
    assertEquals(2, second.rowsQuarantined());
    assertEquals(
        Map.of("named/warn", 1L, "positive weight/quarantine", 2L),
        expectationCounts(second.loadId()));
    ExpectationCount named =
        second.expectations().stream()
            .filter(e -> e.expectation().equals("named"))
            .findFirst()
            .orElseThrow();
    // to_json leaves null fields out; an unkeyed Table's sample is its whole row.
    assertEquals(
        List.of(kind.equals("unkeyed") ? "{\"id\":6,\"weight\":60}" : "{\"id\":6}"),
        named.sampleKeys());
    Map<Integer, Row> after = fixture.rowsById("A.Parcel");
    assertTrue(after.containsKey(6) && live(after.get(6)), "a warned row is loaded");
    assertTrue(!after.containsKey(5), "a quarantined new row is not loaded");
    switch (kind) {
      case "snapshot" -> {
        assertEquals(before, after.get(2), "the quarantined key's row is as it was");
        assertTrue(!live(after.get(3)), "an absent key is soft-deleted");
        assertEquals(List.of(1L, 0L, 1L, 1L), counts(second));
      }
      case "incremental" -> {
        assertEquals(before, after.get(2), "the quarantined key's row is as it was");
        assertTrue(live(after.get(3)), "an incremental load keeps an absent key");
        assertEquals(List.of(1L, 0L, 0L, 1L), counts(second));
      }
      default -> {
        assertTrue(!after.containsKey(2), "the replacement leaves the quarantined row out");
        assertTrue(!after.containsKey(3));
        assertEquals(2, second.rowsInserted());
      }
    }
    List<Row> kept = quarantine(second.loadId());
    assertEquals(2, kept.size(), kept.toString());
    Row two =
        kept.stream()
            .filter(r -> r.getString(r.fieldIndex("row_json")).contains("\"id\":2"))
            .findFirst()
            .orElseThrow();
    assertEquals(
        "{\"id\":2,\"name\":\"B\",\"weight\":0}", two.getString(two.fieldIndex("row_json")));
    assertEquals(List.of("positive weight"), two.getList(two.fieldIndex("expectations")));
    assertEquals(
        kind.equals("unkeyed"), two.isNullAt(two.fieldIndex("key_json")), "key_json: " + two);
  }

  /** Inserted, updated, deleted, unchanged. */
  private static List<Long> counts(LoadResult r) {
    return List.of(r.rowsInserted(), r.rowsUpdated(), r.rowsDeleted(), r.rowsUnchanged());
  }

  @ParameterizedTest
  @ValueSource(strings = {"snapshot", "incremental", "unkeyed"})
  void aFailingExpectationFailsTheLoadAndWritesNothing(String kind) {
    fixture.table(
        "A.Parcel",
        header(kind)
            + "Expectations:\n  light enough:\n    rule: weight < 1000\n"
            + "  positive weight:\n    rule: weight > 0\n    on violation: quarantine\n"
            + "    max percentage: 50\n",
        FIRST + ";\n");
    weaver.build(Scope.all(), false);
    assertEquals(LoadStatus.SUCCEEDED, weaver.load(Scope.all(), false).get(0).status());
    long version = fixture.version("A.Parcel");
    LoadResult second =
        load(
            "select id, name, weight from values (1, 'a', 5000), (2, 'b', -1), (3, 'c', 30)"
                + " as t(id, name, weight)");
    assertEquals(LoadStatus.FAILED, second.status());
    String message = second.message();
    assertTrue(message.contains("A.Parcel"), message);
    assertTrue(message.contains("expectation 'light enough'"), message);
    assertTrue(message.contains("1 of 3 staging rows"), message);
    assertTrue(message.contains("\"id\":1"), message);
    assertTrue(message.contains("nothing written"), message);
    assertEquals(version, fixture.version("A.Parcel"));
    assertEquals(0, quarantine(second.loadId()).size(), "a failed load quarantines nothing");

    // Two of three rows to quarantine: above the ceiling, the quarantine fails the load.
    LoadResult third =
        load(
            "select id, name, weight from values (1, 'a', 10), (2, 'b', -1), (3, 'c', -2)"
                + " as t(id, name, weight)");
    assertEquals(LoadStatus.FAILED, third.status());
    assertTrue(third.message().contains("above its max percentage 50"), third.message());
    assertEquals(version, fixture.version("A.Parcel"));
    assertEquals(0, fixture.catalogue(CatalogueTable.LOAD_QUARANTINE).count());
  }

  @Test
  void aFailureAfterTheQuarantineWithdrawsItAndTheRerunQuarantinesOnce() {
    // Rows of a load that never recorded itself: left by a process that died between its
    // quarantine write and its Table commit. The next quarantine write removes them.
    table(WeaverFixture.KEYED);
    String sql =
        "select id, name, weight from values (1, 'a', 11), (2, 'B', -5), (3, 'c', 30)"
            + " as t(id, name, weight)";
    long version = fixture.version("A.Parcel");
    LoadFaults.arm(LoadFaults.Phase.DURING_WRITE);
    LoadResult failed = load(sql);
    assertEquals(LoadStatus.FAILED, failed.status(), failed.toString());
    assertEquals(version, fixture.version("A.Parcel"));
    assertEquals(0, quarantine(failed.loadId()).size(), "the failed load's rows are withdrawn");
    fixture
        .spark()
        .sql(
            "select 'stopped-load' as load_id, 'A.Parcel' as table_id,"
                + " array('positive weight') as expectations, '{\"id\":2}' as key_json,"
                + " '{}' as row_json")
        .write()
        .format("delta")
        .mode("append")
        .save(fixture.cataloguePath(CatalogueTable.LOAD_QUARANTINE));

    LoadResult rerun = load(sql);
    assertEquals(LoadStatus.SUCCEEDED, rerun.status(), rerun.message());
    assertEquals(1, rerun.rowsUpdated());
    List<Row> all = fixture.catalogue(CatalogueTable.LOAD_QUARANTINE).collectAsList();
    assertEquals(1, all.size(), all.toString());
    assertEquals(rerun.loadId(), all.get(0).getString(all.get(0).fieldIndex("load_id")));
  }

  @Test
  void aStopAfterTheTableCommitKeepsTheQuarantineOnceAndRecoversTheCounts() {
    table(WeaverFixture.KEYED);
    String sql =
        "select id, name, weight from values (1, 'a', 11), (2, 'B', -5), (3, 'c', 30)"
            + " as t(id, name, weight)";
    LoadFaults.arm(LoadFaults.Phase.AFTER_COMMIT);
    org.junit.jupiter.api.Assertions.assertThrows(
        LoadFaults.InjectedFault.class, () -> fixture.loadWith("A.Parcel", sql));
    List<Row> kept = fixture.catalogue(CatalogueTable.LOAD_QUARANTINE).collectAsList();
    assertEquals(1, kept.size(), "written before the Table's commit");
    String stopped = kept.get(0).getString(kept.get(0).fieldIndex("load_id"));

    List<LoadResult> rerun =
        fixture.loadWith(
            "A.Parcel",
            "select id, name, weight from values (1, 'a', 11), (2, 'b', 20), (3, 'c', 30)"
                + " as t(id, name, weight)");
    assertEquals(
        List.of("recovered", "succeeded"), rerun.stream().map(r -> r.status().text()).toList());
    assertEquals(stopped, rerun.get(0).loadId());
    assertEquals(1, rerun.get(0).rowsQuarantined(), "from the commit's receipt");
    assertEquals(
        Map.of("named/warn", 0L, "positive weight/quarantine", 1L), expectationCounts(stopped));
    assertEquals(1, fixture.catalogue(CatalogueTable.LOAD_QUARANTINE).count(), "once");
    assertEquals(0, rerun.get(1).rowsUpdated(), "2 arrives as it was kept: unchanged");
    assertEquals(3, rerun.get(1).rowsUnchanged());
  }

  @Test
  void aRuleThatDoesNotResolveFailsTheLoadNamingIt(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    // Check reports such a rule first (expectation-rule); the engine still refuses it on its own.
    LoadSpec spec =
        TestTable.keyedSpec(dir, false).toBuilder()
            .expectations(
                List.of(
                    new io.weaver.metadata.Expectation(
                        "typo",
                        "wieght > 0",
                        io.weaver.metadata.Expectation.Action.FAIL,
                        java.util.Optional.empty(),
                        new io.weaver.findings.SourcePos(1, 1),
                        new io.weaver.findings.SourcePos(1, 1))))
            .build();
    TestTable table = new TestTable(spec);
    LoadOutcome outcome = table.load(table.rows(TestTable.row(1, "a", 10)), TestTable.T1);
    assertEquals(LoadStatus.FAILED, outcome.status());
    assertTrue(outcome.message().contains("expectation 'typo'"), outcome.message());
    assertTrue(outcome.message().contains("wieght > 0"), outcome.message());
    assertEquals(0, table.version(), "nothing committed after the table's creation");
  }
}
