package io.weaver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.bench.LoadBenchmark.Case;
import io.weaver.bench.LoadBenchmark.Counts;
import io.weaver.bench.LoadBenchmark.Measure;
import io.weaver.bench.LoadBenchmark.RunCounts;
import io.weaver.bench.Workload.Delivery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's report and checks without Spark: a case whose direct writer was unavailable
 * reports nulls (not a crash), and unequal counts stop the run.
 */
class ReportTest {
  private static Measure measure(double seconds) {
    return new Measure(
        seconds,
        3,
        seconds / 2,
        100,
        Map.of("numTargetFilesAdded", 1L),
        (long) (seconds * 1000),
        new DriverMemory.Reading((long) seconds << 20, -1),
        seconds * 1.5,
        seconds);
  }

  private static Case tpchCase(List<Measure> weaver, String error) {
    return new Case(
        10,
        new Delivery("rf1", 0.001, "rf1", false, null),
        weaver,
        List.of(),
        List.of(measure(4.0)),
        List.of(measure(3.0)),
        List.of(measure(5.0)),
        List.of(measure(2.0)),
        List.of(measure(2.5)),
        Map.of(),
        Map.of(),
        Map.of("inserted", 7L),
        List.of(),
        error);
  }

  @Test
  void anUnavailableDirectWriterReportsNullsAndItsMessage() {
    Case c = tpchCase(List.of(), "the direct writer is unavailable");
    Map<String, Object> f = Report.fields(c);
    assertEquals(null, f.get("weaver_s"));
    assertEquals(null, f.get("weaver_over_lower_bound"));
    assertEquals("the direct writer is unavailable", f.get("weaver_error"));
    assertEquals(4.0, f.get("weaver_merge_s"));
    assertEquals(2.0, f.get("weaver_merge_over_lower_bound"));
    assertEquals("rf1", f.get("delivery"));
    String text = Report.text(new SyntheticWorkload(null, 10, List.of()), 1, List.of(c));
    assertTrue(text.contains("No direct writer"), text);
  }

  @Test
  void ratiosToTheLowerBoundHaveThreeDecimals() {
    Map<String, Object> f = Report.fields(tpchCase(List.of(measure(3.0)), null));
    assertEquals(1.5, f.get("weaver_over_lower_bound"));
    assertEquals(2.0, f.get("weaver_merge_over_lower_bound"));
    assertFalse(f.containsKey("weaver_error"));
  }

  /** A synthetic case at {@code rows} whose approaches took {@code weaver} and {@code lower} s. */
  private static Case sized(long rows, double weaver, double lower) {
    return new Case(
        rows,
        new Delivery("f0.01", 0.01, null, false, null),
        List.of(measure(weaver)),
        List.of(measure(weaver * 1.25)),
        List.of(measure(weaver + 1)),
        List.of(measure(weaver * 2)),
        List.of(measure(weaver * 3)),
        List.of(measure(lower)),
        List.of(measure(lower)),
        Map.of(),
        Map.of(),
        Map.of(),
        List.of(),
        null);
  }

  @Test
  void theMarginalCostPerRowComparesTheGrowthOfEachApproachWithTheLowerBounds() {
    List<Report.Result> results =
        List.of(
            new Report.Result(
                new SyntheticWorkload(null, 1000, List.of(0.01)), List.of(sized(1000, 6, 3))),
            new Report.Result(
                new SyntheticWorkload(null, 10000, List.of(0.01)), List.of(sized(10000, 30, 19))));
    Map<String, Object> m = Report.marginal(results).get(0);
    assertEquals(1.5, m.get("weaver")); // (30 - 6) / (19 - 3)
    assertEquals(1.5, m.get("weaver_merge"));
    assertEquals(3.0, m.get("handwritten"));
    assertEquals(1.0, m.get("plan"));
    assertEquals(16.0, m.get("lower_bound_delta_s"));
    assertEquals(1000L, m.get("from_rows"));
    String json = Report.json(results, 1);
    assertTrue(json.contains("\"rows\": [1000, 10000]"), json);
    assertTrue(json.contains("\"marginal\": [{\"fraction\": 0.01"), json);
    assertTrue(Report.text(results, 1).contains("Marginal cost per row, 1,000 -> 10,000 rows"));
    // A lower bound that did not grow gives no ratio rather than a negative or infinite one.
    List<Report.Result> flat =
        List.of(
            new Report.Result(
                new SyntheticWorkload(null, 1000, List.of(0.01)), List.of(sized(1000, 6, 3))),
            new Report.Result(
                new SyntheticWorkload(null, 2000, List.of(0.01)), List.of(sized(2000, 7, 3))));
    assertEquals(null, Report.marginal(flat).get(0).get("weaver"));
    assertTrue(Report.marginal(results.subList(0, 1)).isEmpty());
  }

  /** Three runs of the plain and the expectations load, the medians 4.0 and 4.2 s. */
  private static Case withExpectations() {
    return new Case(
        1000,
        new Delivery("0.01", 0.01, null, false, null),
        List.of(measure(4.0), measure(3.8), measure(5.0)),
        List.of(measure(4.2), measure(4.4), measure(3.9)),
        List.of(measure(5.0)),
        List.of(measure(8.0)),
        List.of(measure(9.0)),
        List.of(measure(2.0)),
        List.of(measure(2.5)),
        Map.of("inserted", 2L, "updated", 6L),
        Map.of("inserted", 2L, "updated", 6L, "quarantined", 0L, "violating", 0L),
        Map.of(),
        List.of(),
        null);
  }

  @Test
  void theLoadWithExpectationsIsReportedWithItsRatioToThePlainLoad() {
    Map<String, Object> f = Report.fields(withExpectations());
    assertEquals(4.2, f.get("weaver_expectations_s"));
    assertEquals(3.9, f.get("weaver_expectations_min_s"));
    assertEquals(1.05, f.get("weaver_expectations_over_weaver")); // 4.2 / 4.0
    assertEquals(1.026, f.get("weaver_expectations_over_weaver_min")); // 3.9 / 3.8
    assertEquals(6.3, f.get("weaver_expectations_cpu_s")); // median 4.2 s × 1.5
    assertEquals(1.05, f.get("weaver_expectations_over_weaver_cpu"));
    assertEquals(4.2, f.get("weaver_expectations_task_cpu_s"));
    assertEquals(1.05, f.get("weaver_expectations_over_weaver_task_cpu"));
    assertEquals(3L, f.get("weaver_expectations_jobs"));
    assertEquals(4200L, f.get("weaver_expectations_shuffle_bytes"));
    assertEquals(0L, ((Map<?, ?>) f.get("weaver_expectations_counts")).get("violating"));
    SyntheticWorkload synthetic = new SyntheticWorkload(null, 1000, List.of(0.01));
    String json = Report.json(synthetic, 3, List.of(withExpectations()));
    assertTrue(json.contains("\"weaver_expectations_over_weaver\": 1.05"), json);
    assertTrue(
        json.contains("{\"name\": \"non-negative amount\", \"rule\": \"amount >= 0\","), json);
    String text = Report.text(synthetic, 3, List.of(withExpectations()));
    assertTrue(text.contains("expect s"), text);
    assertTrue(text.contains("quarantine `amount >= 0`"), text);
    assertTrue(text.contains("}; 1.05, 1.05, 1.05"), text);
    // Without a direct writer (or expectations) the approach reports nulls, not a crash.
    Map<String, Object> none = Report.fields(tpchCase(List.of(), "no direct writer"));
    assertEquals(null, none.get("weaver_expectations_over_weaver"));
  }

  @Test
  void theSyntheticShapeDeclaresOneExpectationPerActionInItsHeader() {
    String block = SyntheticWorkload.SHAPE.expectationsBlock();
    assertTrue(block.startsWith("Expectations:\n  known segment:\n    rule: segment in ("), block);
    for (String action : List.of("warn", "quarantine", "fail")) {
      assertTrue(block.contains("    on violation: " + action + "\n"), block);
    }
    assertEquals(
        "", new TableShape(List.of("a"), List.of("a"), "select 1 as a").expectationsBlock());
  }

  @Test
  void theLoadWithExpectationsMustFindThePlainLoadsCounts() {
    RunCounts found = new RunCounts();
    found.weaver = Map.of("inserted", 2L, "unchanged", 9L, "check_ms", 40L);
    found.weaverExpectations =
        Map.of(
            "inserted", 2L, "unchanged", 9L, "quarantined", 0L, "violating", 0L, "check_ms", 50L);
    found.verify("equal");
    found.weaverExpectations =
        Map.of("inserted", 2L, "unchanged", 8L, "quarantined", 1L, "violating", 1L);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> found.verify("q"));
    assertTrue(e.getMessage().contains("with expectations"), e.getMessage());
  }

  @Test
  void shuffleBytesAndDriverHeapAreReportedForEveryApproach() {
    Map<String, Object> f = Report.fields(sized(1000, 6, 3));
    assertEquals(6000L, f.get("weaver_shuffle_bytes"));
    assertEquals(3000L, f.get("lower_bound_shuffle_bytes"));
    assertEquals(18L << 20, f.get("unconditional_driver_heap_peak_bytes"));
    assertEquals(-1L, f.get("plan_driver_heap_after_gc_bytes"));
    String text = Report.text(new SyntheticWorkload(null, 1000, List.of()), 1, List.of());
    assertTrue(text.contains("shuffle bytes written"), text);
  }

  @Test
  void rowsTakesOneSizeOrSeveralAndRefusesDigitGroupingWithCommas() {
    assertEquals(List.of(1_000_000L), LoadBenchmark.sizes("1_000_000"));
    assertEquals(List.of(20_000L, 40_000L), LoadBenchmark.sizes("20000,40000"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LoadBenchmark.sizes("1,000,000"));
    assertTrue(e.getMessage().contains("group digits with _"), e.getMessage());
  }

  @Test
  void directUnavailableIsRecognisedOnlyWhenTheMessageSaysSo() {
    assertTrue(LoadBenchmark.saysDirectUnavailable("Direct writer unavailable for this Table"));
    // The engine's own refusal (io.weaver.load.write.WritePath).
    assertTrue(
        LoadBenchmark.saysDirectUnavailable(
            "Bench.B.W_m_1: spark.weaver.load.writer=direct, but the direct writer cannot write"
                + " this table (column mapping); nothing written."));
    assertFalse(LoadBenchmark.saysDirectUnavailable("Bench.B.W_m_1: the diff failed: disk full"));
    assertFalse(LoadBenchmark.saysDirectUnavailable("disk full"));
    assertFalse(LoadBenchmark.saysDirectUnavailable(null));
  }

  @Test
  void countsUnequalToTheLowerBoundStopTheRun() {
    RunCounts found = new RunCounts();
    found.found.put("lower bound", new Counts(1, 2, 3));
    found.found.put("weaver", new Counts(1, 2, 3));
    found.verify("equal");
    found.found.put("plan", new Counts(1, 2, 4));
    try {
      found.verify("unequal");
      throw new AssertionError("unequal counts passed");
    } catch (IllegalStateException expected) {
      assertTrue(expected.getMessage().contains("plan"), expected.getMessage());
    }
  }
}
