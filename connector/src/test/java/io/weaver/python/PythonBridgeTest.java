package io.weaver.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JVM half of Python Table loads, with a runner written in Java in place of the Python one (the
 * Python half is tested by python-bindings' pytest suite): the registry, the request, how results
 * and errors reach the load, and bookmarks moving only with committed loads.
 */
class PythonBridgeTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("PyBridge");
  private final SparkSession spark = fixture.spark();
  private final String item = fixture.item();
  private final WeaverWorkspace weaver = fixture.weaver();

  @BeforeEach
  void setUp() {
    fixture
        .files()
        .py(
            item,
            "Feed.Py",
            "Table ID: Feed.Py\nDescription: A Python Table.\nPrimary key: id\n"
                + "Incremental: true\nSchema:\n  id: bigint\n  name: string\n",
            "\nfrom weaver import Table\n\n\nclass Feed__Py(Table):\n"
                + "    def read(self):\n        return None\n");
    assertEquals("created", weaver.build(Scope.item(item), false).get(0).action());
  }

  @AfterEach
  void tearDown() {
    PythonBridge.unregister(spark);
  }

  private LoadResult load() {
    List<LoadResult> results = weaver.load(Scope.table(item + ".Feed.Py"), false);
    return results.get(results.size() - 1);
  }

  private long version() {
    return fixture.version("Feed.Py");
  }

  @Test
  void withoutARuntimeAPythonTableIsSkippedWithHowToGetOne() {
    LoadResult r = load();
    assertEquals(LoadStatus.SKIPPED, r.status());
    assertTrue(r.message().contains("weaver.register(spark)"), r.message());
    assertTrue(r.message().contains("pip install pyspark=="), r.message());
  }

  @Test
  void stagingAndBookmarksReachTheEngineAndErrorsKeepTheirTraceback() {
    List<String> seenBookmarks = new ArrayList<>();
    AtomicReference<PythonRead> next = new AtomicReference<>();
    AtomicReference<PythonReadRequest> lastRequest = new AtomicReference<>();
    PythonBridge.register(
        spark,
        request -> {
          seenBookmarks.add(request.bookmark());
          lastRequest.set(request);
          return next.get();
        });

    next.set(
        PythonRead.staged(
            spark.sql("select id, cast(id as string) as name from range(3)"), null, "{\"n\":1}"));
    LoadResult first = load();
    assertEquals(LoadStatus.SUCCEEDED, first.status(), first.message());
    assertEquals(3, first.rowsInserted());
    PythonReadRequest request = lastRequest.get();
    assertEquals(item, request.item());
    assertEquals("Feed.Py", request.tableId());
    assertEquals("Feed__Py", request.className());
    assertTrue(request.file().endsWith("Feed__Py.py"), request.file());
    assertEquals(List.of("id"), request.primaryKey());
    assertEquals(List.of("id", "name"), request.businessColumns());
    assertTrue(request.incremental());
    assertTrue(request.lastLoadTimestamp().startsWith("1900-01-01T00:00:00"));
    assertEquals(3, request.readTarget().count()); // after the load: the live rows
    assertEquals(3, request.readTable("Feed.Py", false).count());
    assertEquals(3, request.readTable(item + ".Feed.Py", true).count());

    long committed = version();
    next.set(
        PythonRead.failed(
            item
                + ".Feed.Py (Feed__Py.py): read() failed with ValueError; nothing was written.\n"
                + "Traceback (most recent call last):\n  File \"Feed__Py.py\", line 9, in read\n"
                + "ValueError: boom"));
    LoadResult failed = load();
    assertEquals(LoadStatus.FAILED, failed.status());
    assertTrue(failed.message().contains("Traceback (most recent call last):"), failed.message());
    assertTrue(failed.message().endsWith("ValueError: boom"), failed.message());
    assertEquals(committed, version(), "a failed read writes nothing");

    next.set(
        PythonRead.staged(
            null, spark.sql("select cast(0 as bigint) as id"), "{\"n\":2}")); // deletions only
    LoadResult deletes = load();
    assertEquals(LoadStatus.SUCCEEDED, deletes.status(), deletes.message());
    assertEquals(1, deletes.rowsDeleted());

    next.set(PythonRead.staged(null, null, null)); // no work, bookmark unchanged
    assertEquals(LoadStatus.NO_WORK, load().status());

    assertNull(seenBookmarks.get(0));
    assertEquals("{\"n\":1}", seenBookmarks.get(1)); // the failed load's request
    assertEquals("{\"n\":1}", seenBookmarks.get(2)); // the failure did not move it
    assertEquals("{\"n\":2}", seenBookmarks.get(3));
  }

  @Test
  void aRuntimeThatThrowsFailsTheLoadNamingTheTable() {
    PythonBridge.register(
        spark,
        request -> {
          throw new IllegalStateException("Error while sending or receiving");
        });
    LoadResult r = load();
    assertEquals(LoadStatus.FAILED, r.status());
    assertTrue(r.message().contains(item + ".Feed.Py"), r.message());
    assertTrue(r.message().contains("Python runtime did not answer"), r.message());
  }
}
