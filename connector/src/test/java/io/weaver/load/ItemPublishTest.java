package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.install.BuildOutcome;
import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.load.publish.ItemPublisher;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code publish: together} (docs/table-contract.md, "Item publish"): readers by name see all of an
 * item's load or none of it. Two Tables, {@code Sales.Orders} and {@code Sales.Totals} (which reads
 * Orders by name), are loaded while a reader on another thread queries their join in a loop: every
 * answer is a published state, through a refused load, a stop between the two Tables' commits and
 * stops on either side of the publish commit; the run itself reads its new versions; each rerun
 * publishes exactly once.
 */
class ItemPublishTest {
  private static final String LIVE = "timestamp'9999-12-31 00:00:00'";

  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Pub");
  private final WeaverWorkspace weaver = fixture.weaver();
  private final SparkSession spark = fixture.spark();

  private String source() {
    return fixture.dir().resolve("source").toString();
  }

  /** The source of {@code Sales.Orders}: ids 1..n, each with value v. */
  private void source(int n, int v) {
    spark
        .sql("select id, cast(" + v + " as int) as v from range(1, " + (n + 1) + ")")
        .write()
        .format("delta")
        .mode("overwrite")
        .save(source());
  }

  private void declare(String publish) {
    fixture.files().write("weaver.yaml", "item." + fixture.item() + ".publish: " + publish + "\n");
    fixture.table(
        "Sales.Orders", WeaverFixture.KEYED, "select id, v from delta.`" + source() + "`;\n");
    fixture.table(
        "Sales.Totals",
        "Primary key: id\nStability row threshold: 0\nDelete percentage threshold: 50\n"
            + "Update percentage threshold: 100\n",
        "select id, v * 10 as v10 from Sales.Orders where row_delete_datetime = " + LIVE + ";\n");
  }

  /** What a reader by name sees: Orders' live values and Totals' live values, joined. */
  private String state() {
    Row r =
        spark
            .sql(
                "select count(*) as n, sum(o.v) as orders, sum(t.v10) as totals from "
                    + fixture.qualified("Sales.Orders")
                    + " o full join "
                    + fixture.qualified("Sales.Totals")
                    + " t on o.id = t.id and t.row_delete_datetime = "
                    + LIVE
                    + " where o.row_delete_datetime = "
                    + LIVE)
            .first();
    return r.get(0) + " rows, orders " + r.get(1) + ", totals " + r.get(2);
  }

  private List<LoadResult> loadItem() {
    return weaver.load(Scope.item(fixture.item()), false);
  }

  private long publishes() {
    return fixture.catalogue(CatalogueTable.ITEM_PUBLISH).select("publish_id").distinct().count();
  }

  private static LoadResult of(List<LoadResult> results, String suffix) {
    return results.stream()
        .filter(r -> r.tableId().endsWith(suffix))
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  @Test
  void readersSeeAllOfAnItemsLoadOrNoneOfIt() throws Exception {
    declare("together");
    source(4, 1);
    List<BuildOutcome> built = weaver.build(Scope.all(), false);
    assertTrue(built.stream().noneMatch(b -> b.action().equals("failed")), built.toString());
    loadItem();
    String first = state();
    assertEquals("4 rows, orders 4, totals 40", first);
    assertEquals(
        2, publishes(), "the first publish, before the first load commits, then the load's");

    Set<String> published = ConcurrentHashMap.newKeySet();
    published.add(first);
    List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean reading = new AtomicBoolean(true);
    AtomicReference<Throwable> readerFailed = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                while (reading.get()) {
                  seen.add(state());
                  // A pause as long as a read: the reader still samples every window between
                  // two commits several times, and leaves the loads half the cores, not a third.
                  Thread.sleep(100);
                }
              } catch (Throwable e) {
                readerFailed.set(e);
              }
            },
            "publish-reader");
    reader.start();
    try {
      // A load of both Tables: the dependant read the new Orders within the run.
      source(4, 2);
      loadItem();
      assertEquals("4 rows, orders 8, totals 80", state());
      published.add(state());

      // Totals is refused (3 of 4 rows would go): Orders committed, nobody sees it by name.
      source(1, 3);
      List<LoadResult> refused = loadItem();
      assertEquals(LoadStatus.REFUSED, of(refused, "Sales.Totals").status());
      LoadResult orders = of(refused, "Sales.Orders");
      assertEquals(LoadStatus.SUCCEEDED, orders.status());
      assertTrue(
          orders.warnings().stream().anyMatch(w -> w.startsWith("committed, not published")),
          orders.warnings().toString());
      assertEquals("4 rows, orders 8, totals 80", state());
      assertEquals(
          1,
          spark
              .read()
              .format("delta")
              .load(fixture.path("Sales.Orders"))
              .where("row_delete_datetime = " + LIVE)
              .count(),
          "by path, the committed load is visible");
      assertEquals(3, publishes());

      // The process stops between the two Tables' commits; the rerun publishes both.
      source(4, 4);
      LoadFaults.arm(LoadFaults.Phase.AFTER_COMMIT);
      assertThrows(LoadFaults.InjectedFault.class, this::loadItem);
      LoadFaults.disarm();
      assertEquals("4 rows, orders 8, totals 80", state());
      loadItem();
      assertEquals("4 rows, orders 16, totals 160", state());
      published.add(state());
      assertEquals(4, publishes());

      // Stops on either side of the publish commit: each rerun ends published exactly once.
      source(4, 5);
      LoadFaults.arm(LoadFaults.Phase.BEFORE_PUBLISH);
      assertThrows(LoadFaults.InjectedFault.class, this::loadItem);
      LoadFaults.disarm();
      assertEquals("4 rows, orders 16, totals 160", state());
      loadItem();
      assertEquals("4 rows, orders 20, totals 200", state());
      published.add(state());
      assertEquals(5, publishes());

      source(4, 6);
      LoadFaults.arm(LoadFaults.Phase.AFTER_PUBLISH);
      assertThrows(LoadFaults.InjectedFault.class, this::loadItem);
      LoadFaults.disarm();
      published.add(state());
      assertEquals("4 rows, orders 24, totals 240", state());
      loadItem();
      assertEquals(6, publishes(), "the rerun after the publish committed publishes nothing");
    } finally {
      reading.set(false);
      reader.join();
    }
    if (readerFailed.get() != null) {
      throw new AssertionError("the reader failed", readerFailed.get());
    }
    assertTrue(seen.size() > 5, "the reader ran through the loads: " + seen.size() + " reads");
    for (String answer : seen) {
      assertTrue(
          published.contains(answer), "a reader saw a mix: " + answer + " not in " + published);
    }

    // The item stops publishing together: one publish pins nothing, readers see latest again.
    declare("each");
    source(4, 7);
    loadItem();
    ItemPublishManifest last =
        new ItemPublisher(spark, fixture.layout(), fixture.model(), FaultPoints.NONE)
            .latest(fixture.item())
            .orElseThrow();
    assertEquals(ItemPublishManifest.KIND_OFF, last.kind());
    assertEquals("4 rows, orders 28, totals 280", state());
  }

  /** The load id {@code _.ItemPublish} records for {@code table} in the item's latest publish. */
  private String publishedLoadId(String table) {
    ItemPublishManifest latest =
        new ItemPublisher(spark, fixture.layout(), fixture.model(), FaultPoints.NONE)
            .latest(fixture.item())
            .orElseThrow();
    Row row =
        fixture
            .catalogue(CatalogueTable.ITEM_PUBLISH)
            .where(
                org.apache
                    .spark
                    .sql
                    .functions
                    .col("publish_id")
                    .equalTo(latest.publishId())
                    .and(org.apache.spark.sql.functions.col("table_id").equalTo(table)))
            .first();
    String loadId = row.getString(row.fieldIndex("load_id"));
    assertEquals(latest.tables().get(table).loadId(), loadId, "the manifest and the row agree");
    return loadId;
  }

  @Test
  void aPublishRecordsTheLoadThatProducedEachPinnedVersion() {
    declare("together");
    source(4, 1);
    List<BuildOutcome> built = weaver.build(Scope.all(), false);
    assertTrue(built.stream().noneMatch(b -> b.action().equals("failed")), built.toString());
    loadItem();

    // Orders commits, Totals is refused: nothing published.
    source(1, 2);
    LoadResult changing = of(loadItem(), "Sales.Orders");
    assertEquals(LoadStatus.SUCCEEDED, changing.status(), changing.message());
    // Orders changes nothing now; Totals, its gates waived, commits: the publish pins Orders at
    // the version the changing load produced, not at its latest load's id.
    List<LoadResult> waived = weaver.load(Scope.item(fixture.item()), true);
    LoadResult quiet = of(waived, "Sales.Orders");
    assertEquals(0, quiet.counts().changed(), quiet.toString());
    assertEquals(LoadStatus.SUCCEEDED, of(waived, "Sales.Totals").status());
    assertEquals(changing.loadId(), publishedLoadId("Sales.Orders"));
    assertEquals(of(waived, "Sales.Totals").loadId(), publishedLoadId("Sales.Totals"));

    // Orders commits and the process stops before its history; the rerun recovers that load and
    // changes nothing itself: the publish names the recovered load.
    source(4, 3);
    LoadFaults.arm(LoadFaults.Phase.AFTER_COMMIT);
    assertThrows(LoadFaults.InjectedFault.class, this::loadItem);
    LoadFaults.disarm();
    List<LoadResult> rerun = loadItem();
    LoadResult recovered =
        rerun.stream()
            .filter(r -> r.tableId().endsWith("Sales.Orders"))
            .filter(r -> r.status() == LoadStatus.RECOVERED)
            .findFirst()
            .orElseThrow(() -> new AssertionError(rerun.toString()));
    assertEquals(0, of(rerun, "Sales.Orders").counts().changed(), rerun.toString());
    assertEquals(recovered.loadId(), publishedLoadId("Sales.Orders"));
  }
}
