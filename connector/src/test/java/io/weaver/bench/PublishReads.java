package io.weaver.bench;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.lakehouse.LakehouseLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What a read by name costs when its item publishes together (a study, not a test;
 * docs/performance.md, "Item publish"): 100 reads of {@code count(*)} by name of the same small
 * table in three items — one that never published, one whose publish pins the latest version, one
 * whose publish pins the version before the latest (a load committed, not yet published) — in
 * interleaved rounds, one JVM. Prints the median time per read and the Spark jobs per read. Run
 * with {@code benchmarks/run --publish-reads}.
 */
public final class PublishReads {
  private static final int READS = 100;
  private static final int ROUNDS = 5;

  private PublishReads() {}

  public static void main(String[] args) throws Exception {
    Path work = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (args[i].equals("--work")) {
        work = Path.of(args[i + 1]);
      }
    }
    if (work == null) {
      work = Files.createTempDirectory("publish-reads");
    }
    Path lake = work.resolve("lake");
    List<String> items = List.of("Plain", "PinnedLatest", "PinnedBehind");
    SparkSession spark = BenchSession.create(lake, items);
    spark.sparkContext().setLogLevel("WARN");
    AtomicLong jobs = new AtomicLong();
    spark
        .sparkContext()
        .addSparkListener(
            new SparkListener() {
              @Override
              public void onJobStart(SparkListenerJobStart jobStart) {
                jobs.incrementAndGet();
              }
            });
    LakehouseLayout layout = LakehouseLayout.at(lake.toString());
    for (String item : items) {
      String path = layout.tablePath(item, "S", "T");
      for (int version = 0; version < 2; version++) {
        spark
            .sql("select id, id * " + (version + 1) + " as v from range(0, 10000)")
            .write()
            .format("delta")
            .mode("overwrite")
            .save(path);
      }
      if (!item.equals("Plain")) {
        long pinned = item.equals("PinnedLatest") ? 1 : 0;
        Catalogue catalogue = new Catalogue(spark, layout, item);
        catalogue.ensureTable(CatalogueTable.ITEM_PUBLISH);
        ItemPublishManifest manifest =
            new ItemPublishManifest(
                "p1",
                1,
                ItemPublishManifest.KIND_LOAD,
                Instant.now(),
                Map.of("S.T", new ItemPublishManifest.Entry(pinned, null)));
        catalogue.appendOnce(
            CatalogueTable.ITEM_PUBLISH,
            List.of(
                CatalogueTable.ITEM_PUBLISH
                    .row()
                    .set("publish_id", "p1")
                    .set("publish_sequence", 1L)
                    .set("kind", manifest.kind())
                    .set("published_at", java.sql.Timestamp.from(manifest.publishedAt()))
                    .set("table_id", "S.T")
                    .set("delta_version", pinned)
                    .build()),
            "weaver-publish:" + item,
            1,
            manifest.toUserMetadata());
      }
    }
    Map<String, List<double[]>> measured = new LinkedHashMap<>();
    for (int round = 0; round <= ROUNDS; round++) {
      for (String item : items) {
        long jobsBefore = jobs.get();
        long t0 = System.nanoTime();
        long sum = 0;
        for (int i = 0; i < READS; i++) {
          Row r = spark.sql("select sum(v) as s from " + item + ".S.T").first();
          sum += r.<Long>getAs("s");
        }
        double msPerRead = (System.nanoTime() - t0) / 1e6 / READS;
        spark.sparkContext().listenerBus().waitUntilEmpty();
        double jobsPerRead = (jobs.get() - jobsBefore) / (double) READS;
        System.err.printf(
            Locale.ROOT,
            "PUBLISH-READS round %d %-13s %7.2f ms/read %5.2f jobs/read (sum %d)%n",
            round,
            item,
            msPerRead,
            jobsPerRead,
            sum / READS);
        if (round > 0) { // round 0 warms up
          measured
              .computeIfAbsent(item, k -> new ArrayList<>())
              .add(new double[] {msPerRead, jobsPerRead});
        }
      }
    }
    System.out.println(
        "read by name, " + READS + " reads per round, median of " + ROUNDS + " rounds");
    for (Map.Entry<String, List<double[]>> e : measured.entrySet()) {
      List<double[]> runs = e.getValue();
      runs.sort((a, b) -> Double.compare(a[0], b[0]));
      double[] median = runs.get(runs.size() / 2);
      System.out.printf(
          Locale.ROOT,
          "  %-13s %7.2f ms per read  %5.2f Spark jobs per read%n",
          e.getKey(),
          median[0],
          median[1]);
    }
    spark.stop();
  }
}
