package io.weaver.load;

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
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every Spark job a load starts is named after the Table and the step (docs/engine.md, "Spark
 * jobs"), in the load's own job group or the caller's, and the caller's thread gets its own
 * description and group back afterwards. A listener records the jobs as Spark starts them.
 */
class JobLabelsTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Jobs");
  private final SparkSession spark = fixture.spark();
  private final WeaverWorkspace weaver = fixture.weaver();

  /** Description and group of each job started while it listens. */
  private static final class Jobs extends SparkListener implements AutoCloseable {
    private final SparkContext context;
    private final List<String[]> started = new ArrayList<>();

    Jobs(SparkContext context) {
      this.context = context;
      context.addSparkListener(this);
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart job) {
      Properties p = job.properties();
      started.add(
          new String[] {
            p == null ? null : p.getProperty("spark.job.description"),
            p == null ? null : p.getProperty("spark.jobGroup.id")
          });
    }

    List<String[]> all() throws java.util.concurrent.TimeoutException {
      context.listenerBus().waitUntilEmpty(30_000);
      synchronized (this) {
        return List.copyOf(started);
      }
    }

    @Override
    public void close() {
      context.removeSparkListener(this);
    }
  }

  @Test
  void aLoadsJobsNameTheTableAndTheStepAndTheCallersLabelsComeBack() throws Exception {
    String table = fixture.item() + ".A.Site";
    fixture.table(
        "A.Site",
        WeaverFixture.KEYED,
        "select id, name from values (1, 'a'), (2, 'b'), (3, 'c') as t(id, name);\n");
    weaver.build(Scope.all(), false);
    assertEquals(LoadStatus.SUCCEEDED, weaver.load(Scope.all(), false).get(0).status());
    fixture.table(
        "A.Site",
        WeaverFixture.KEYED,
        "select id, name from values (1, 'a'), (2, 'bb'), (4, 'd') as t(id, name);\n");

    List<String[]> jobs;
    try (Jobs listener = new Jobs(spark.sparkContext())) {
      LoadResult changed = weaver.load(Scope.all(), false).get(0);
      assertEquals(LoadStatus.SUCCEEDED, changed.status(), changed.message());
      assertEquals(1, changed.rowsUpdated());
      jobs = listener.all();
    }
    assertTrue(jobs.size() > 3, "a changing load runs several jobs: " + jobs.size());
    Set<String> steps = new TreeSet<>();
    for (String[] job : jobs) {
      // Delta's own jobs put "Delta: " and their purpose around the description they inherit.
      assertTrue(
          job[0] != null && job[0].contains("Weaver load " + table),
          "every job of the load names the Table, not: " + job[0]);
      assertEquals("weaver-load-" + table, job[1], "the load's own job group: " + job[0]);
      if (job[0].startsWith("Weaver load " + table)) {
        steps.add(job[0].substring(("Weaver load " + table).length()));
      }
    }
    assertTrue(steps.contains(": diff"), steps.toString());
    // The direct writer's steps (the default path here; the MERGE path's step is ": merge").
    assertTrue(steps.contains(": write new row versions"), steps.toString());
    assertTrue(steps.contains(": deletion vectors"), steps.toString());
    assertTrue(steps.contains(": history and state"), steps.toString());
    assertNull(spark.sparkContext().getLocalProperty("spark.job.description"));
    assertNull(spark.sparkContext().getLocalProperty("spark.jobGroup.id"));

    // A notebook cell's job group (what the notebook cancels by) is kept; descriptions are ours.
    fixture.table(
        "A.Site",
        WeaverFixture.KEYED,
        "select id, name from values (1, 'a'), (2, 'b'), (4, 'd') as t(id, name);\n");
    spark.sparkContext().setJobGroup("cell-7", "my cell", false);
    try (Jobs listener = new Jobs(spark.sparkContext())) {
      assertEquals(LoadStatus.SUCCEEDED, weaver.load(Scope.all(), false).get(0).status());
      for (String[] job : listener.all()) {
        assertEquals("cell-7", job[1]);
        assertTrue(job[0].contains("Weaver load " + table), job[0]);
      }
      assertEquals("my cell", spark.sparkContext().getLocalProperty("spark.job.description"));
      assertEquals("cell-7", spark.sparkContext().getLocalProperty("spark.jobGroup.id"));
    } finally {
      spark.sparkContext().clearJobGroup();
    }
  }
}
