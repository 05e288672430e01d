package io.weaver.sql.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.weaver.load.LoadFaults;
import io.weaver.load.LoadFaults.Phase;
import io.weaver.load.spec.LoadStatus;
import io.weaver.sql.commands.WeaverLoadException;
import io.weaver.sql.testing.SqlSession;
import io.weaver.sql.testing.WorkspaceFiles;
import io.weaver.testing.LongMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The faults of docs/reliability.md ("Faults") through the SQL entry points: {@code LOAD WEAVER
 * TABLE} through {@code spark.sql}, and a DataFrame append ({@code df.write.format("weaver")}),
 * which {@code WritesAsLoads} turns into a load. Each scenario loads a keyed Table (1, 2), arms one
 * phase, runs the second load (2 changes, 3 arrives) through SQL, checks what the caller sees, runs
 * the same statement again and checks: the live rows, exactly one Delta commit carrying the change,
 * one history row per load id with the expected statuses, and that a further load is ordinary.
 *
 * <p>CI runs the stop after the commit, the failed history write and the DataFrame append; the
 * stops before the write and after the history, whose engine paths LoadFaultTest takes in CI, run
 * through SQL in the long mode ({@link LongMode}).
 */
class SqlLoadFaultTest {
  @AfterAll
  static void stopSession() {
    SqlSession.stop();
  }

  private static final AtomicInteger ITEMS = new AtomicInteger();
  private static final String SECOND = "(1, 'a'), (2, 'B'), (3, 'c')";

  @TempDir Path workspace;
  private SparkSession spark;
  private String item;
  private String site;

  @BeforeEach
  void setUp() throws IOException {
    spark = SqlSession.get();
    spark.conf().set("spark.weaver.workspace", workspace.toString());
    item = "SqlFault" + ITEMS.incrementAndGet();
    site = item + ".A.Site";
    body("(1, 'a'), (2, 'b')");
    spark.sql("BUILD WEAVER ITEM " + item).collectAsList();
    Row first = load().get(0);
    assertEquals("succeeded", first.getString(2), first.toString());
  }

  @AfterEach
  void tearDown() {
    LoadFaults.disarm();
  }

  /** (Re)writes the Table's SQL body: the rows the next LOAD WEAVER TABLE stages. */
  private void body(String values) throws IOException {
    WorkspaceFiles.sqlTable(
        workspace,
        item,
        "A.Site",
        "Primary key: id\nStability row threshold: 0\nDelete percentage threshold: 100\n"
            + "Update percentage threshold: 100\n",
        "select id, name from values " + values + " as t(id, name);\n");
  }

  private List<Row> load() {
    return spark.sql("LOAD WEAVER TABLE " + site).collectAsList();
  }

  private static List<String> statuses(List<Row> rows) {
    return rows.stream().map(r -> r.getString(2)).toList();
  }

  private Dataset<Row> rows(String values) {
    return spark.sql("select id, name from values " + values + " as t(id, name)");
  }

  private String path() {
    return workspace.resolve(".weaver/lakehouse/" + item + "/Tables/A/Site").toString();
  }

  private long version() {
    return DeltaTable.forPath(spark, path()).history(1).first().getLong(0);
  }

  /** Delta commits that carry a Weaver commit receipt: one per applied load. */
  private long receiptCommits() {
    return DeltaTable.forPath(spark, path())
        .history()
        .where(functions.col("userMetadata").contains("weaver_load"))
        .count();
  }

  /** Live rows through the item catalog (Weaver's live-rows rule hides deleted ones). */
  private Map<Integer, String> live() {
    Map<Integer, String> rows = new TreeMap<>();
    spark
        .sql("SELECT id, name FROM " + site)
        .collectAsList()
        .forEach(r -> rows.put(r.getInt(0), r.getString(1)));
    return rows;
  }

  /** {@code _.LoadHistory} in load order: status per row. */
  private List<String> history() {
    return spark
        .sql("SELECT status FROM " + item + "._.LoadHistory ORDER BY started_at, load_id")
        .collectAsList()
        .stream()
        .map(r -> r.getString(0))
        .toList();
  }

  private long stateSequence() {
    return spark.sql("SELECT load_sequence FROM " + item + "._.LoadState").first().getLong(0);
  }

  /** The checks every scenario ends with, then one more load that must be ordinary. */
  private void assertConvergedAndUsable() throws IOException {
    assertEquals(Map.of(1, "a", 2, "B", 3, "c"), live());
    assertEquals(2, receiptCommits(), "the second load's change is committed exactly once");
    List<String> ids =
        spark.sql("SELECT load_id FROM " + item + "._.LoadHistory").collectAsList().stream()
            .map(r -> r.getString(0))
            .toList();
    assertEquals(ids.size(), new HashSet<>(ids).size(), "load ids are unique in history: " + ids);
    body("(1, 'A'), (2, 'B'), (3, 'c')");
    List<Row> next = load();
    assertEquals(List.of("succeeded"), statuses(next), next.toString());
    assertEquals(1L, next.get(0).getLong(4)); // updated
    assertEquals(2L, next.get(0).getLong(7)); // unchanged
    assertEquals(Map.of(1, "A", 2, "B", 3, "c"), live());
    assertEquals(3, receiptCommits());
    assertEquals(3, stateSequence());
  }

  /** A stop: the statement throws, naming the phase. */
  private void assertStops(Phase phase, org.junit.jupiter.api.function.Executable call) {
    LoadFaults.arm(phase);
    Throwable stop = assertThrows(Throwable.class, call);
    String text = SqlSession.messages(stop);
    assertTrue(text.contains("injected fault at " + phase), text);
    assertFalse(LoadFaults.armed(), "the fault fired");
  }

  @Test
  @Tag(LongMode.TAG)
  void stopAfterTheDiffThroughSqlWritesNothingAndTheRerunAppliesOnce() throws IOException {
    long before = version();
    body(SECOND);
    assertStops(Phase.AFTER_DIFF, this::load);
    assertEquals(before, version(), "nothing committed");
    assertEquals(List.of("succeeded"), history(), "the stopped load left no history");

    List<Row> rerun = load();
    assertEquals(List.of("succeeded"), statuses(rerun), rerun.toString());
    assertEquals(1L, rerun.get(0).getLong(3)); // inserted
    assertEquals(1L, rerun.get(0).getLong(4)); // updated
    assertEquals(List.of("succeeded", "succeeded"), history());
    assertConvergedAndUsable();
  }

  @Test
  @Tag(LongMode.TAG)
  void taskFailureDuringTheWriteThroughSqlIsAFailedRow() throws IOException {
    long before = version();
    body(SECOND);
    LoadFaults.arm(Phase.DURING_WRITE);
    List<Row> failed = load();
    assertFalse(LoadFaults.armed(), "the fault fired inside the write job");
    assertEquals(List.of("failed"), statuses(failed), failed.toString());
    String message = failed.get(0).getString(14);
    assertTrue(message.startsWith(site), message);
    assertTrue(message.contains("injected failure at DURING_WRITE"), message);
    assertEquals(before, version(), "a failed write commits nothing");
    assertEquals(Map.of(1, "a", 2, "b"), live());
    assertEquals(List.of("succeeded", "failed"), history());
    assertEquals(1, stateSequence(), "a failed load does not advance the state");

    List<Row> rerun = load();
    assertEquals(List.of("succeeded"), statuses(rerun), rerun.toString());
    assertEquals(1L, rerun.get(0).getLong(3));
    assertEquals(List.of("succeeded", "failed", "succeeded"), history());
    assertConvergedAndUsable();
  }

  @Test
  void stopAfterTheCommitThroughSqlIsRecoveredNotReapplied() throws IOException {
    long before = version();
    body(SECOND);
    assertStops(Phase.AFTER_COMMIT, this::load);
    assertEquals(before + 1, version(), "the commit landed");
    assertEquals(List.of("succeeded"), history());

    List<Row> rerun = load();
    assertEquals(List.of("recovered", "succeeded"), statuses(rerun), rerun.toString());
    assertEquals(1L, rerun.get(0).getLong(3), "recovered from the commit's metrics");
    assertEquals(1L, rerun.get(0).getLong(4));
    assertEquals(before + 1, rerun.get(0).getLong(11), "the recovered row names the commit");
    assertEquals(0L, rerun.get(1).getLong(3) + rerun.get(1).getLong(4));
    assertEquals(3L, rerun.get(1).getLong(7));
    assertEquals(List.of("succeeded", "recovered", "succeeded"), history());
    assertConvergedAndUsable();
  }

  @Test
  void failedHistoryWriteThroughSqlIsASucceededRowWithAWarning() throws IOException {
    long before = version();
    body(SECOND);
    LoadFaults.arm(Phase.DURING_HISTORY);
    List<Row> result = load();
    assertEquals(List.of("succeeded"), statuses(result), result.toString());
    assertEquals(before + 1, result.get(0).getLong(11));
    List<String> warnings = result.get(0).getList(15);
    assertTrue(
        warnings.stream().anyMatch(w -> w.contains("could not be written")), warnings.toString());
    assertEquals(List.of("succeeded"), history(), "no 'failed' row for a committed load");

    List<Row> rerun = load();
    assertEquals(List.of("recovered", "succeeded"), statuses(rerun), rerun.toString());
    assertEquals(result.get(0).getString(0), rerun.get(0).getString(0), "same load id");
    assertEquals(List.of("succeeded", "recovered", "succeeded"), history());
    assertConvergedAndUsable();
  }

  @Test
  @Tag(LongMode.TAG)
  void stopAfterHistoryThroughSqlRepairsTheStateWithoutASecondHistoryRow() throws IOException {
    body(SECOND);
    assertStops(Phase.AFTER_HISTORY, this::load);
    assertEquals(List.of("succeeded", "succeeded"), history());
    assertEquals(1, stateSequence(), "the state was not written");

    List<Row> rerun = load();
    assertEquals(List.of("succeeded"), statuses(rerun), rerun.toString());
    assertEquals(3L, rerun.get(0).getLong(7));
    assertEquals(2, stateSequence(), "the state is repaired from the commit receipt");
    assertEquals(List.of("succeeded", "succeeded", "succeeded"), history());
    assertConvergedAndUsable();
  }

  @Test
  void dataFrameAppendUnderAFailureAndAStopConvergesToOneApply() throws IOException {
    long before = version();
    // A failure: the writing job fails with WeaverLoadException naming the Table; nothing lands.
    LoadFaults.arm(Phase.DURING_WRITE);
    WeaverLoadException failed =
        assertThrows(
            WeaverLoadException.class,
            () -> rows(SECOND).write().format("weaver").mode("append").save(site));
    assertTrue(failed.getMessage().contains(site), failed.getMessage());
    assertTrue(
        SqlSession.messages(failed).contains("injected failure at DURING_WRITE"),
        SqlSession.messages(failed));
    assertEquals(LoadStatus.FAILED, failed.result().status());
    assertEquals(before, version());
    assertEquals(Map.of(1, "a", 2, "b"), live());
    assertEquals(List.of("succeeded", "failed"), history());

    // A stop after the commit: the write throws, the data is in, no history yet.
    assertStops(
        Phase.AFTER_COMMIT, () -> rows(SECOND).write().format("weaver").mode("append").save(site));
    assertEquals(before + 1, version(), "the commit landed");
    assertEquals(List.of("succeeded", "failed"), history());

    // The same write again: recovered from the receipt, then nothing left to change.
    rows(SECOND).write().format("weaver").mode("append").save(site);
    assertEquals(before + 1, version(), "not applied twice");
    assertEquals(List.of("succeeded", "failed", "recovered", "succeeded"), history());
    assertConvergedAndUsable();
  }
}
