package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The load runner end to end: history, state, recovery after a crash, concurrency, skipping. */
class LoadRunnerTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Run");
  private final SparkSession spark = fixture.spark();
  private final String item = fixture.item();
  private final WeaverWorkspace weaver = fixture.weaver();

  private void table(String id, String header, String body) {
    fixture.table(id, header, body);
  }

  private String path(String id) {
    return fixture.path(id);
  }

  private long version(String id) {
    return fixture.version(id);
  }

  private List<Row> catalogue(CatalogueTable table) {
    var df = fixture.catalogue(table);
    return df.orderBy(df.columns()[0]).collectAsList();
  }

  private static final String SITES = WeaverFixture.KEYED;

  @Test
  void historyAndStateAreWrittenAndTheResultHasSpecNames() throws IOException {
    table("A.Site", SITES, "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    List<LoadResult> results = weaver.load(Scope.all(), false);
    assertEquals(1, results.size());
    LoadResult r = results.get(0);
    assertEquals(LoadStatus.SUCCEEDED, r.status(), r.message());
    assertEquals(item + ".A.Site", r.tableId());
    assertEquals(2, r.rowsInserted());
    assertEquals(version("A.Site"), r.deltaVersion());
    assertEquals(
        List.of(
            "load_id",
            "table_id",
            "status",
            "rows_inserted",
            "rows_updated",
            "rows_deleted",
            "rows_revived",
            "rows_unchanged",
            "rows_rejected",
            "target_live_rows_before",
            "target_live_rows_after",
            "delta_version",
            "gates_waived",
            "duration_ms",
            "message",
            "warnings",
            "rows_quarantined",
            "rows_stale",
            "expectations"),
        List.copyOf(r.toMap().keySet()));
    List<Row> history = catalogue(CatalogueTable.LOAD_HISTORY);
    assertEquals(1, history.size());
    assertEquals(r.loadId(), history.get(0).getString(0));
    Row state = catalogue(CatalogueTable.LOAD_STATE).get(0);
    assertEquals(r.loadId(), state.getString(state.fieldIndex("last_load_id")));
    assertEquals(1L, state.getLong(state.fieldIndex("load_sequence")));
    assertEquals(r.deltaVersion(), state.getLong(state.fieldIndex("last_delta_version")));
  }

  private long catalogueVersion(CatalogueTable table) {
    return DeltaTable.forPath(spark, fixture.cataloguePath(table))
        .history(1)
        .collectAsList()
        .get(0)
        .getLong(0);
  }

  /**
   * The loads of one call that write nothing record themselves together when the call ends: two
   * unchanged Tables cost one history commit and one state commit (not two each), every row is
   * there, and the next call's loads still know their last load changed nothing.
   */
  @Test
  void theLoadsOfOneCallThatWriteNothingRecordThemselvesInTwoCommits() throws IOException {
    table("A.Site", SITES, "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    table("A.Depot", SITES, "select id, name from values (7, 'x') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    assertEquals(2, weaver.load(Scope.all(), false).size());
    long history = catalogueVersion(CatalogueTable.LOAD_HISTORY);
    long state = catalogueVersion(CatalogueTable.LOAD_STATE);

    List<LoadResult> quiet = weaver.load(Scope.all(), false);
    assertEquals(2, quiet.size());
    for (LoadResult r : quiet) {
      assertEquals(LoadStatus.SUCCEEDED, r.status(), r.message());
      assertEquals(0, r.rowsInserted() + r.rowsUpdated() + r.rowsDeleted(), r.message());
    }
    assertEquals(history + 1, catalogueVersion(CatalogueTable.LOAD_HISTORY));
    assertEquals(state + 1, catalogueVersion(CatalogueTable.LOAD_STATE));
    assertEquals(4, catalogue(CatalogueTable.LOAD_HISTORY).size());
    List<String> lastLoads =
        catalogue(CatalogueTable.LOAD_STATE).stream()
            .map(r -> r.getString(r.fieldIndex("last_load_id")))
            .sorted()
            .toList();
    assertEquals(quiet.stream().map(LoadResult::loadId).sorted().toList(), lastLoads);

    long checked = SameRows.CHECKED.get();
    List<LoadResult> next = weaver.load(Scope.all(), false);
    assertEquals(2, SameRows.CHECKED.get() - checked, "both take the no-change check");
    assertEquals(2, next.stream().filter(r -> r.rowsUnchanged() > 0).count());
  }

  private LoadResult loadSites(String values) throws IOException {
    table("A.Site", SITES, "select id, name from values " + values + " as t(id, name);\n");
    return weaver.load(Scope.all(), false).get(0);
  }

  /**
   * After a load that changed nothing, the next load first compares checksums of staging and the
   * table; equal ones end it, different ones (changes, a duplicate key with the same row count, a
   * revive) go on to the full diff, which finds exactly what changed.
   */
  @Test
  void aLoadAfterAnUnchangedLoadChecksFirstAndStillFindsEveryChange() throws IOException {
    table("A.Site", SITES, "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    long checked = SameRows.CHECKED.get();
    long matched = SameRows.MATCHED.get();
    assertEquals(2, loadSites("(1, 'a'), (2, 'b')").rowsInserted());
    LoadResult same = loadSites("(1, 'a'), (2, 'b')");
    assertEquals(2, same.rowsUnchanged(), same.message());
    assertEquals(checked, SameRows.CHECKED.get(), "the previous load committed: full diff");
    long v = version("A.Site");

    LoadResult again = loadSites("(1, 'a'), (2, 'b')");
    assertEquals(LoadStatus.SUCCEEDED, again.status(), again.message());
    assertEquals(2, again.rowsUnchanged());
    assertEquals(2, again.targetLiveRowsBefore());
    assertEquals(checked + 1, SameRows.CHECKED.get(), "the previous load changed nothing");
    assertEquals(matched + 1, SameRows.MATCHED.get());
    assertEquals(v, version("A.Site"), "nothing written");

    // Same row count as the table, but a duplicate key: the checksums differ and the diff reports.
    LoadResult duplicate = loadSites("(1, 'a'), (1, 'a')");
    assertEquals(LoadStatus.FAILED, duplicate.status(), duplicate.message());
    assertTrue(duplicate.message().contains("duplicate"), duplicate.message());
    assertEquals(matched + 1, SameRows.MATCHED.get());
    assertEquals(v, version("A.Site"));

    LoadResult changed = loadSites("(1, 'a2'), (3, 'c')");
    assertEquals(LoadStatus.SUCCEEDED, changed.status(), changed.message());
    assertEquals(1, changed.rowsUpdated());
    assertEquals(1, changed.rowsInserted());
    assertEquals(1, changed.rowsDeleted());
    assertEquals(matched + 1, SameRows.MATCHED.get());

    assertEquals(2, loadSites("(1, 'a2'), (3, 'c')").rowsUnchanged());
    LoadResult quiet = loadSites("(1, 'a2'), (3, 'c')");
    assertEquals(2, quiet.rowsUnchanged(), quiet.message());
    assertEquals(matched + 2, SameRows.MATCHED.get(), "checked and matched: soft-deleted 2 aside");
    // The soft-deleted key comes back: the live rows' checksum differs, the diff revives it.
    LoadResult revived = loadSites("(1, 'a2'), (2, 'b'), (3, 'c')");
    assertEquals(LoadStatus.SUCCEEDED, revived.status(), revived.message());
    assertEquals(1, revived.rowsRevived());
    assertEquals(2, revived.rowsUnchanged());
    assertEquals(3L, spark.sql("select * from " + item + ".A.Site").count());
  }

  /**
   * The load state is kept in memory between loads of one process; a write to {@code _.LoadState}
   * from outside (another process, a hand fix) must be seen by the next load all the same.
   */
  @Test
  void aStateWrittenOutsideTheProcessIsSeenByTheNextLoad() throws IOException {
    table("A.Site", SITES, "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    assertEquals(LoadStatus.SUCCEEDED, weaver.load(Scope.all(), false).get(0).status());
    String appId = LoadRequest.txnAppId(item + ".A.Site");
    assertEquals(1L, DeltaLogProbe.latest(spark, "A.Site", path("A.Site")).lastTxnVersion(appId));

    String statePath = fixture.cataloguePath(CatalogueTable.LOAD_STATE);
    DeltaTable.forPath(spark, statePath)
        .update(java.util.Map.of("load_sequence", org.apache.spark.sql.functions.lit(7L)));

    table("A.Site", SITES, "select id, name from values (1, 'a'), (3, 'c') as t(id, name);\n");
    LoadResult second = weaver.load(Scope.all(), false).get(0);
    assertEquals(LoadStatus.SUCCEEDED, second.status(), second.message());
    assertEquals(1, second.rowsInserted());
    assertEquals(
        8L,
        DeltaLogProbe.latest(spark, "A.Site", path("A.Site")).lastTxnVersion(appId),
        "the load continued from the sequence written outside, not from the one in memory");
    Row state = catalogue(CatalogueTable.LOAD_STATE).get(0);
    assertEquals(8L, state.getLong(state.fieldIndex("load_sequence")));
    assertEquals(second.loadId(), state.getString(state.fieldIndex("last_load_id")));

    // The state this process wrote last is kept: a third load reads it without a Delta scan and
    // still continues the sequence.
    table("A.Site", SITES, "select id, name from values (1, 'a') as t(id, name);\n");
    LoadResult third = weaver.load(Scope.all(), false).get(0);
    assertEquals(LoadStatus.SUCCEEDED, third.status(), third.message());
    assertEquals(9L, DeltaLogProbe.latest(spark, "A.Site", path("A.Site")).lastTxnVersion(appId));
  }

  @Test
  void crashAfterCommitIsRecoveredAndNotAppliedTwice() throws IOException {
    table("A.Site", SITES, "select id, name from values (1, 'a'), (2, 'b') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    long before = version("A.Site");
    LoadFaults.arm(LoadFaults.Phase.AFTER_COMMIT);
    assertThrows(LoadFaults.InjectedFault.class, () -> weaver.load(Scope.all(), false));
    assertEquals(before + 1, version("A.Site"), "the commit landed");
    assertEquals(0, catalogue(CatalogueTable.LOAD_HISTORY).size(), "history was not written");

    List<LoadResult> next = weaver.load(Scope.all(), false);
    assertEquals(2, next.size(), next.toString());
    assertEquals(LoadStatus.RECOVERED, next.get(0).status());
    assertEquals(before + 1, next.get(0).deltaVersion());
    assertEquals(LoadStatus.SUCCEEDED, next.get(1).status());
    assertEquals(0, next.get(1).rowsInserted(), "the data is applied once");
    assertEquals(2, next.get(1).rowsUnchanged());
    assertEquals(before + 1, version("A.Site"), "nothing new written");
    assertEquals(2L, fixture.rows("A.Site").count());
    List<String> statuses =
        catalogue(CatalogueTable.LOAD_HISTORY).stream().map(r -> r.getString(2)).toList();
    assertEquals(List.of("recovered", "succeeded"), statuses);
    Row state = catalogue(CatalogueTable.LOAD_STATE).get(0);
    assertEquals(1L, state.getLong(state.fieldIndex("load_sequence")));
  }

  @Test
  void failedTableSkipsItsDependantsButNotUnrelatedTables() throws IOException {
    table("A.Bad", SITES, "select id from values (1), (1) as t(id);\n");
    table("A.Child", SITES + "Dependencies: [A.Bad]\n", "select id from values (1) as t(id);\n");
    table("A.Other", SITES, "select id from values (7) as t(id);\n");
    weaver.build(Scope.all(), false);
    List<LoadResult> results = weaver.load(Scope.all(), false);
    java.util.Map<String, LoadResult> byTable = new java.util.HashMap<>();
    results.forEach(r -> byTable.put(r.tableId().substring(item.length() + 1), r));
    assertEquals(LoadStatus.FAILED, byTable.get("A.Bad").status());
    assertTrue(byTable.get("A.Bad").message().contains("id"), byTable.get("A.Bad").message());
    assertEquals(LoadStatus.SKIPPED, byTable.get("A.Child").status());
    assertTrue(
        byTable.get("A.Child").message().contains("A.Bad"), byTable.get("A.Child").message());
    assertEquals(LoadStatus.SUCCEEDED, byTable.get("A.Other").status());
  }

  /**
   * A load that throws becomes a failed result; before that, its whole exception, stack trace
   * included, goes to the log at ERROR with the Table and the load id.
   */
  @Test
  void aFailedLoadLogsItsExceptionWithTheTableAndLoadId() throws IOException {
    table("A.Site", SITES, "select id, name from values (1, 'a') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    table(
        "A.Site",
        SITES,
        "select id, cast(raise_error('boom in the body') as string) as name"
            + " from values (1) as t(id);\n");
    List<LogEvent> events = new CopyOnWriteArrayList<>();
    AbstractAppender appender =
        new AbstractAppender("load-failures", null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            events.add(event.toImmutable());
          }
        };
    appender.start();
    List<Logger> loggers =
        List.of(
            (Logger) LogManager.getLogger(LoadAttempt.class),
            (Logger) LogManager.getLogger(LoadEngine.class));
    loggers.forEach(l -> l.addAppender(appender));
    LoadResult r;
    try {
      r = weaver.load(Scope.all(), false).get(0);
    } finally {
      loggers.forEach(l -> l.removeAppender(appender));
      appender.stop();
    }
    assertEquals(LoadStatus.FAILED, r.status(), r.message());
    assertTrue(r.message().contains("boom in the body"), r.message());
    List<LogEvent> errors = events.stream().filter(e -> e.getLevel() == Level.ERROR).toList();
    assertEquals(1, errors.size(), events.toString());
    LogEvent logged = errors.get(0);
    String text = logged.getMessage().getFormattedMessage();
    assertTrue(text.contains(item + ".A.Site") && text.contains(r.loadId()), text);
    Throwable thrown = logged.getThrown();
    assertTrue(thrown != null && thrown.getStackTrace().length > 0, "the stack trace is logged");
    boolean found = false;
    for (Throwable t = thrown; t != null && !found; t = t.getCause()) {
      found = String.valueOf(t.getMessage()).contains("boom in the body");
    }
    assertTrue(found, thrown.toString());
  }

  @Test
  void reservedWordNamesAreQuotedEverywhere() throws IOException {
    table(
        "Sales.Order",
        SITES,
        "select id, `select` from values (1, 'a'), (2, 'b') as t(id, `select`);\n");
    table(
        "Sales.Total",
        SITES.replace("Primary key: id", "Primary key: n"),
        "select count(*) as n from Sales.Order;\n");
    assertTrue(
        weaver.build(Scope.all(), false).stream().allMatch(o -> o.action().equals("created")));
    List<LoadResult> results = weaver.load(Scope.all(), false);
    assertEquals(
        List.of("succeeded", "succeeded"),
        results.stream().map(loaded -> loaded.status().text()).toList(),
        results.toString());
    assertEquals(
        item + ".Sales.Order",
        results.get(0).tableId(),
        "Sales.Total reads Sales.Order: inferred order");
    assertEquals(2L, spark.sql("select n from " + item + ".Sales.Total").first().getLong(0));
    assertEquals(
        2L, spark.sql("select count(*) from " + item + ".Sales.`Order`").first().getLong(0));
    List<Row> deps = catalogue(CatalogueTable.DEPENDENCY);
    assertEquals(1, deps.size());
    assertEquals("inferred", deps.get(0).getString(deps.get(0).fieldIndex("kind")));
    assertEquals(
        "Sales.Order", deps.get(0).getString(deps.get(0).fieldIndex("depends_on_table_id")));
  }

  @Test
  void twoConcurrentLoadsNeverCorruptDataOrHistory() throws Exception {
    table("A.Site", SITES, "select id, name from values (1, 'a') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    weaver.load(Scope.all(), false);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Callable<List<LoadResult>>> loads = new ArrayList<>();
    for (String name : List.of("x", "y")) {
      loads.add(
          () ->
              weaver.loadWith(
                  item + ".A.Site",
                  false,
                  (t, c) ->
                      new StagingProvider.Staging(
                          spark.sql(
                              "select 1 as id, '"
                                  + name
                                  + "' as name union all select 2, '"
                                  + name
                                  + "'"),
                          Optional.empty(),
                          Optional.empty())));
    }
    List<LoadResult> results = new ArrayList<>();
    for (Future<List<LoadResult>> f : pool.invokeAll(loads)) {
      results.addAll(f.get());
    }
    pool.shutdown();
    long succeeded = results.stream().filter(r -> r.status() == LoadStatus.SUCCEEDED).count();
    assertTrue(succeeded >= 1, results.toString());
    results.stream()
        .filter(r -> r.status() == LoadStatus.FAILED)
        .forEach(
            r ->
                assertTrue(
                    r.message().contains("another") || r.message().contains("concurrent"),
                    r.message()));
    List<Row> rows =
        fixture
            .rows("A.Site")
            .where("row_delete_datetime > '9000-01-01'")
            .orderBy("id")
            .collectAsList();
    assertEquals(2, rows.size(), rows.toString());
    assertEquals(
        rows.get(0).getString(1), rows.get(1).getString(1), "one load's rows, not a mixture");
    Row state = catalogue(CatalogueTable.LOAD_STATE).get(0);
    assertEquals(1 + succeeded, state.getLong(state.fieldIndex("load_sequence")));
  }
}
