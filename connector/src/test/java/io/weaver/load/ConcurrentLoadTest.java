package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Loads racing other writers (docs/reliability.md, "Concurrency"): {@code OPTIMIZE} of the target,
 * and appends to the source the body reads. Whatever the interleaving, the data and history are
 * consistent, a failure says what happened and what to do, and a retry converges. (Two loads of one
 * table at once: {@link LoadRunnerTest#twoConcurrentLoadsNeverCorruptDataOrHistory}.)
 */
class ConcurrentLoadTest {
  private static final String KEYED = WeaverFixture.KEYED;
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Race");
  private final SparkSession spark = fixture.spark();
  private final Path dir = fixture.dir();
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void tearDown() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(60, TimeUnit.SECONDS);
  }

  private void table(String body) {
    fixture.table("A.Site", KEYED, body);
    fixture.weaver().build(Scope.all(), false);
  }

  private String path() {
    return fixture.path("A.Site");
  }

  private List<LoadResult> load(StagingProvider staging) {
    return fixture.weaver().loadWith(fixture.qualified("A.Site"), false, staging);
  }

  private StagingProvider sql(String query) {
    return fixture.staging(query);
  }

  private Set<Integer> liveIds() {
    Set<Integer> ids = new HashSet<>();
    fixture.liveRows("A.Site").select("id").collectAsList().forEach(r -> ids.add(r.getInt(0)));
    return ids;
  }

  private List<Row> history() {
    return fixture.catalogue(CatalogueTable.LOAD_HISTORY).collectAsList();
  }

  private static void assertClearIfFailed(LoadResult r) {
    if (r.status() == LoadStatus.FAILED) {
      assertTrue(
          r.message().contains("run the load again") || r.message().contains("another"),
          "a lost race says what to do: " + r.message());
    } else {
      assertEquals(LoadStatus.SUCCEEDED, r.status(), r.message());
    }
  }

  @Test
  void loadWhileOptimizeRunsIsCorrectOrRetriable() throws Exception {
    table("select cast(id as int) as id, 'a' as name from range(1, 41) as t(id);\n");
    // Several small files, so OPTIMIZE has work to do while the load runs.
    for (int round = 0; round < 3; round++) {
      int r = round;
      LoadResult result =
          load(sql(
                  "select cast(id as int) as id, 'r"
                      + r
                      + "' || cast(id % (2 + "
                      + r
                      + ") as string) as name"
                      + " from range(1, 41) as t(id)"))
              .get(0);
      assertEquals(LoadStatus.SUCCEEDED, result.status(), result.message());
    }
    String target =
        "select cast(id as int) as id, 'final' as name from range(1, 41) as t(id) where id <> 7";
    CountDownLatch go = new CountDownLatch(1);
    Future<List<LoadResult>> loading =
        pool.submit(
            () -> {
              go.await();
              return load(sql(target));
            });
    Future<?> optimizing =
        pool.submit(
            () -> {
              go.await();
              try {
                spark.sql("OPTIMIZE delta.`" + path() + "`").collectAsList();
              } catch (RuntimeException e) {
                // OPTIMIZE may lose the race instead; the load's side is what matters here.
              }
              return null;
            });
    go.countDown();
    LoadResult raced = loading.get(300, TimeUnit.SECONDS).get(0);
    optimizing.get(300, TimeUnit.SECONDS);
    assertClearIfFailed(raced);
    if (raced.status() == LoadStatus.FAILED) {
      assertTrue(
          raced.message().contains("another operation"),
          "OPTIMIZE is not another load: " + raced.message());
    }
    LoadResult retry = load(sql(target)).get(0);
    assertEquals(LoadStatus.SUCCEEDED, retry.status(), retry.message());
    if (raced.status() == LoadStatus.SUCCEEDED) {
      assertEquals(0, retry.rowsUpdated() + retry.rowsDeleted() + retry.rowsInserted());
    } else {
      assertEquals(39, retry.rowsUpdated());
      assertEquals(1, retry.rowsDeleted());
    }
    Set<Integer> expected = new HashSet<>();
    for (int i = 1; i <= 40; i++) {
      if (i != 7) {
        expected.add(i);
      }
    }
    assertEquals(expected, liveIds());
    assertEquals(
        39L,
        spark
            .read()
            .format("delta")
            .load(path())
            .where("name = 'final' and row_delete_datetime = timestamp'9999-12-31 00:00:00'")
            .count());
    assertEquals(40L, spark.read().format("delta").load(path()).count(), "no duplicated keys");
  }

  @Test
  void loadWhileTheSourceIsAppendedSeesOneSnapshot() throws Exception {
    String source = dir.resolve("source").toString();
    spark
        .sql("select cast(id as int) as id, 'a' as name from range(1, 21) as t(id)")
        .write()
        .format("delta")
        .save(source);
    table("select 1 as id, 'a' as name;\n"); // built, never loaded: the source is the staging
    StagingProvider fromSource =
        (t, c) ->
            new StagingProvider.Staging(
                spark.read().format("delta").load(source), Optional.empty(), Optional.empty());
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch started = new CountDownLatch(1);
    Future<Integer> appender =
        pool.submit(
            () -> {
              int batches = 0;
              started.countDown();
              while (!stop.get() && batches < 40) {
                int from = 1000 + 10 * batches;
                spark
                    .sql(
                        "select cast(id as int) as id, 'b' as name from range("
                            + from
                            + ", "
                            + (from + 10)
                            + ") as t(id)")
                    .write()
                    .format("delta")
                    .mode("append")
                    .save(source);
                batches++;
              }
              return batches;
            });
    started.await();
    List<LoadResult> results = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      results.addAll(load(fromSource));
    }
    stop.set(true);
    appender.get(300, TimeUnit.SECONDS);
    results.forEach(ConcurrentLoadTest::assertClearIfFailed);
    // Each load's counts describe exactly what it wrote: inserted rows are live rows.
    long inserted = results.stream().mapToLong(LoadResult::rowsInserted).sum();
    assertEquals(
        inserted
            - results.stream().mapToLong(LoadResult::rowsDeleted).sum()
            + results.stream().mapToLong(LoadResult::rowsRevived).sum(),
        liveIds().size());
    // After the appender stops, one more load converges to the source exactly.
    LoadResult last = load(fromSource).get(0);
    assertEquals(LoadStatus.SUCCEEDED, last.status(), last.message());
    Set<Integer> sourceIds = new HashSet<>();
    spark
        .read()
        .format("delta")
        .load(source)
        .select("id")
        .collectAsList()
        .forEach(r -> sourceIds.add(r.getInt(0)));
    assertEquals(sourceIds, liveIds());
    long keys = spark.read().format("delta").load(path()).select("id").distinct().count();
    assertEquals(keys, spark.read().format("delta").load(path()).count(), "no duplicated keys");
    long statuses =
        history().stream().filter(r -> r.getString(r.fieldIndex("status")) != null).count();
    assertEquals(results.size() + 1, statuses, "one history row per load");
  }
}
