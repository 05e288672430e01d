package io.weaver.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    return new Measure(seconds, 3, seconds / 2, 100, Map.of("numTargetFilesAdded", 1L));
  }

  private static Case tpchCase(List<Measure> weaver, String error) {
    return new Case(
        new Delivery("rf1", 0.001, "rf1", false, null),
        weaver,
        List.of(measure(4.0)),
        List.of(measure(3.0)),
        List.of(measure(5.0)),
        List.of(measure(2.0)),
        List.of(measure(2.5)),
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

  @Test
  void directUnavailableIsRecognisedOnlyWhenTheMessageSaysSo() {
    assertTrue(LoadBenchmark.saysDirectUnavailable("Direct writer unavailable for this Table"));
    // The engine's own refusal (io.weaver.load.WritePath).
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
