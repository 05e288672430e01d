package io.weaver.bench;

import io.weaver.bench.LoadBenchmark.Case;
import io.weaver.bench.LoadBenchmark.Measure;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/** The benchmark's output: a text table or one JSON document. */
final class Report {
  private Report() {}

  /** One target size's cases ({@code --rows a,b} measures several in one JVM). */
  record Result(Workload workload, List<Case> cases) {}

  /**
   * The approaches as the JSON names them, with each one's measures in a case: the order of the
   * per-approach figures (shuffle bytes, driver heap) and of the marginal cost per row.
   */
  static final Map<String, Function<Case, List<Measure>>> APPROACHES = approaches();

  private static Map<String, Function<Case, List<Measure>>> approaches() {
    Map<String, Function<Case, List<Measure>>> m = new LinkedHashMap<>();
    m.put("weaver", Case::weaver);
    m.put("weaver_expectations", Case::weaverExpectations);
    m.put("weaver_merge", Case::weaverMerge);
    m.put("handwritten", Case::hand);
    m.put("unconditional", Case::unconditional);
    m.put("lower_bound", Case::lower);
    m.put("plan", Case::plan);
    return m;
  }

  // An approach without measures (the direct writer the engine does not have) reports nulls.

  static Long medianLong(List<Measure> measures, ToLongFunction<Measure> f) {
    if (measures.isEmpty()) {
      return null;
    }
    List<Long> s = measures.stream().map(f::applyAsLong).sorted().toList();
    return s.get((s.size() - 1) / 2);
  }

  static Double median(List<Measure> measures, ToDoubleFunction<Measure> f) {
    if (measures.isEmpty()) {
      return null;
    }
    List<Double> s = measures.stream().map(f::applyAsDouble).sorted().toList();
    int m = s.size() / 2;
    return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
  }

  static Double seconds(List<Measure> measures) {
    return median(measures, Measure::seconds);
  }

  static Double min(List<Measure> measures) {
    return measures.isEmpty()
        ? null
        : measures.stream().mapToDouble(Measure::seconds).min().orElseThrow();
  }

  static Long bytes(List<Measure> m) {
    return medianLong(m, x -> x.metric("numTargetBytesAdded"));
  }

  static Long files(List<Measure> m) {
    return medianLong(m, x -> x.metric("numTargetFilesAdded"));
  }

  static Double ratio(Number a, Number b) {
    return a == null || b == null || b.doubleValue() == 0
        ? null
        : a.doubleValue() / b.doubleValue();
  }

  static Map<String, Object> fields(Case c) {
    Map<String, Object> m = new LinkedHashMap<>();
    Double w = seconds(c.weaver());
    Double we = seconds(c.weaverExpectations());
    Double wm = seconds(c.weaverMerge());
    Double h = seconds(c.hand());
    Double u = seconds(c.unconditional());
    Double l = seconds(c.lower());
    Double p = seconds(c.plan());
    m.put("rows", c.rows());
    if (c.delivery().delivery() != null) {
      m.put("delivery", c.delivery().delivery());
    }
    m.put("fraction", c.fraction());
    m.put("weaver_s", round(w));
    if (c.weaverError() != null) {
      // Why weaver_s is null: the engine has no direct writer (weaver_merge_s still measured).
      m.put("weaver_error", c.weaverError());
    }
    // The direct load of a Table declaring the shape's expectations (none violated: same rows).
    m.put("weaver_expectations_s", round(we));
    m.put("weaver_merge_s", round(wm));
    m.put("handwritten_s", round(h));
    m.put("unconditional_s", round(u));
    m.put("lower_bound_s", round(l));
    m.put("plan_s", round(p));
    // Best of the runs: on a shared machine the minimum is the least disturbed measurement.
    m.put("weaver_min_s", round(min(c.weaver())));
    m.put("weaver_expectations_min_s", round(min(c.weaverExpectations())));
    m.put("weaver_merge_min_s", round(min(c.weaverMerge())));
    m.put("handwritten_min_s", round(min(c.hand())));
    m.put("unconditional_min_s", round(min(c.unconditional())));
    m.put("lower_bound_min_s", round(min(c.lower())));
    m.put("plan_min_s", round(min(c.plan())));
    m.put("weaver_files_added", files(c.weaver()));
    m.put("weaver_bytes_added", bytes(c.weaver()));
    m.put("weaver_merge_files_added", files(c.weaverMerge()));
    m.put("weaver_merge_bytes_added", bytes(c.weaverMerge()));
    m.put("unconditional_bytes_added", bytes(c.unconditional()));
    m.put("unconditional_files_added", files(c.unconditional()));
    m.put("handwritten_files_added", files(c.hand()));
    m.put("handwritten_bytes_added", bytes(c.hand()));
    m.put("weaver_output_rows", medianLong(c.weaver(), x -> x.metric("numOutputRows")));
    m.put("weaver_merge_output_rows", medianLong(c.weaverMerge(), x -> x.metric("numOutputRows")));
    m.put("handwritten_output_rows", medianLong(c.hand(), x -> x.metric("numOutputRows")));
    m.put(
        "unconditional_output_rows", medianLong(c.unconditional(), x -> x.metric("numOutputRows")));
    m.put(
        "unconditional_rows_copied",
        medianLong(c.unconditional(), x -> x.metric("numTargetRowsCopied")));
    Long committed = medianLong(c.weaver(), x -> x.metric("committed"));
    m.put("weaver_committed", committed == null ? null : committed == 1);
    // What the timed Weaver load knew of its Table's previous load (see LoadBenchmark.weaverLoad).
    m.put("weaver_previous_load", c.delivery().steady() ? "changed nothing" : "none");
    m.put("weaver_jobs", medianLong(c.weaver(), Measure::jobs));
    m.put("weaver_expectations_jobs", medianLong(c.weaverExpectations(), Measure::jobs));
    m.put("weaver_merge_jobs", medianLong(c.weaverMerge(), Measure::jobs));
    m.put("handwritten_jobs", medianLong(c.hand(), Measure::jobs));
    m.put("unconditional_jobs", medianLong(c.unconditional(), Measure::jobs));
    m.put("lower_bound_jobs", medianLong(c.lower(), Measure::jobs));
    m.put("plan_jobs", medianLong(c.plan(), Measure::jobs));
    m.put("weaver_spark_busy_s", round(median(c.weaver(), Measure::busySeconds)));
    m.put(
        "weaver_expectations_spark_busy_s",
        round(median(c.weaverExpectations(), Measure::busySeconds)));
    m.put("weaver_merge_spark_busy_s", round(median(c.weaverMerge(), Measure::busySeconds)));
    m.put("handwritten_spark_busy_s", round(median(c.hand(), Measure::busySeconds)));
    m.put("unconditional_spark_busy_s", round(median(c.unconditional(), Measure::busySeconds)));
    m.put("lower_bound_spark_busy_s", round(median(c.lower(), Measure::busySeconds)));
    APPROACHES.forEach(
        (name, measures) ->
            m.put(name + "_shuffle_bytes", medianLong(measures.apply(c), Measure::shuffleBytes)));
    APPROACHES.forEach(
        (name, measures) ->
            m.put(
                name + "_driver_heap_peak_bytes",
                medianLong(measures.apply(c), x -> x.heap().peakBytes())));
    // -1 in a run without a collection during the call: the median then says "no GC" as -1.
    APPROACHES.forEach(
        (name, measures) ->
            m.put(
                name + "_driver_heap_after_gc_bytes",
                medianLong(measures.apply(c), x -> x.heap().afterGcBytes())));
    // CPU seconds per call (whole JVM, and Spark tasks alone): steadier than wall time on a
    // machine another process shares.
    APPROACHES.forEach(
        (name, measures) ->
            m.put(name + "_cpu_s", round(median(measures.apply(c), Measure::cpuSeconds))));
    APPROACHES.forEach(
        (name, measures) ->
            m.put(name + "_task_cpu_s", round(median(measures.apply(c), Measure::taskCpuSeconds))));
    m.put("weaver_input_bytes", medianLong(c.weaver(), Measure::inputBytes));
    m.put(
        "weaver_expectations_input_bytes", medianLong(c.weaverExpectations(), Measure::inputBytes));
    m.put("lower_bound_input_bytes", medianLong(c.lower(), Measure::inputBytes));
    m.put("weaver_counts", c.weaverCounts());
    m.put("weaver_expectations_counts", c.weaverExpectationsCounts());
    m.put("weaver_merge_counts", c.weaverMergeCounts());
    m.put("ratio_weaver_lower_bound", round(ratio(w, l)));
    m.put("weaver_over_lower_bound", round(ratio(w, l)));
    m.put("weaver_merge_over_lower_bound", round(ratio(wm, l)));
    m.put("ratio_weaver_handwritten", round(ratio(w, h)));
    // Issue 39: expectations ride the diff's pass, so declaring them costs at most 5 % of the load.
    // The best-of ratio beside the medians' is the less disturbed one on a shared machine.
    m.put("weaver_expectations_over_weaver", round(ratio(we, w)));
    m.put(
        "weaver_expectations_over_weaver_min",
        round(ratio(min(c.weaverExpectations()), min(c.weaver()))));
    m.put(
        "weaver_expectations_over_weaver_cpu",
        round(
            ratio(
                median(c.weaverExpectations(), Measure::cpuSeconds),
                median(c.weaver(), Measure::cpuSeconds))));
    m.put(
        "weaver_expectations_over_weaver_task_cpu",
        round(
            ratio(
                median(c.weaverExpectations(), Measure::taskCpuSeconds),
                median(c.weaver(), Measure::taskCpuSeconds))));
    // A plan is the load stopped after its gates: against the same lower bound (docs/plan.md).
    m.put("ratio_plan_lower_bound", round(ratio(p, l)));
    m.put("ratio_unconditional_weaver_time", round(ratio(u, w)));
    m.put(
        "ratio_unconditional_weaver_bytes",
        round(ratio(bytes(c.unconditional()), bytes(c.weaver()))));
    return m;
  }

  static Double round(Double d) {
    return d == null ? null : Math.round(d * 1000) / 1000.0;
  }

  /**
   * The marginal cost per row between the smallest and the largest size, for each change fraction
   * both measured: for each approach, (T(big) − T(small)) / (LB(big) − LB(small)) on the medians,
   * what one more row costs it against what it costs the lower bound (1 = the floor's rate). Null
   * when a median is missing or the lower bound did not grow (sizes too close for the machine's
   * noise). Empty with fewer than two sizes.
   */
  static List<Map<String, Object>> marginal(List<Result> results) {
    if (results.size() < 2) {
      return List.of();
    }
    Comparator<Result> byRows = Comparator.comparingLong(r -> r.workload().rows());
    Result small = results.stream().min(byRows).orElseThrow();
    Result big = results.stream().max(byRows).orElseThrow();
    List<Map<String, Object>> out = new ArrayList<>();
    for (Case s : small.cases()) {
      Case b =
          big.cases().stream()
              .filter(c -> c.delivery().label().equals(s.delivery().label()))
              .findFirst()
              .orElse(null);
      if (b == null) {
        continue;
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("fraction", s.fraction());
      m.put("from_rows", s.rows());
      m.put("to_rows", b.rows());
      Double lowerDelta = difference(seconds(b.lower()), seconds(s.lower()));
      m.put("lower_bound_delta_s", round(lowerDelta));
      APPROACHES.forEach(
          (name, measures) -> {
            if (!name.equals("lower_bound")) {
              Double delta = difference(seconds(measures.apply(b)), seconds(measures.apply(s)));
              m.put(
                  name,
                  lowerDelta == null || lowerDelta <= 0 ? null : round(ratio(delta, lowerDelta)));
            }
          });
      out.add(m);
    }
    return out;
  }

  private static Double difference(Double a, Double b) {
    return a == null || b == null ? null : a - b;
  }

  static String json(Workload workload, int runs, List<Case> cases) {
    return json(List.of(new Result(workload, cases)), runs);
  }

  static String json(List<Result> results, int runs) {
    Workload first = results.get(0).workload();
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("workload", first.name());
    doc.putAll(first.describe());
    // One size: its row count; several (--rows a,b): the list, and each case says its own.
    doc.put(
        "rows",
        results.size() == 1
            ? first.rows()
            : results.stream().map(r -> (Object) r.workload().rows()).toList());
    doc.put("runs", runs);
    doc.put("cores", Runtime.getRuntime().availableProcessors());
    // The write path of the weaver figures; weaver_merge_* are the MERGE path's.
    doc.put("approach_path", LoadBenchmark.WEAVER_PATH);
    // The rules weaver_expectations_* declared (none of the workload's rows violates them).
    doc.put(
        "expectations",
        first.shape().expectations().stream()
            .map(
                e -> {
                  Map<String, Object> r = new LinkedHashMap<>();
                  r.put("name", e.name());
                  r.put("rule", e.rule());
                  r.put("on_violation", e.action());
                  return (Object) r;
                })
            .toList());
    List<Object> list = new ArrayList<>();
    results.forEach(r -> r.cases().forEach(c -> list.add(fields(c))));
    doc.put("cases", list);
    if (results.size() > 1) {
      doc.put("marginal", marginal(results));
    }
    return toJson(doc);
  }

  /** The case's name in the text table: the TPC-H delivery, or the change fraction. */
  private static String caseName(Case c) {
    return c.delivery().delivery() != null ? c.delivery().delivery() : percent(c.fraction());
  }

  static String text(List<Result> results, int runs) {
    StringBuilder out = new StringBuilder();
    for (Result r : results) {
      if (out.length() > 0) {
        out.append('\n');
      }
      out.append(text(r.workload(), runs, r.cases()));
    }
    List<Map<String, Object>> marginal = marginal(results);
    if (!marginal.isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT,
              "%nMarginal cost per row, %,d -> %,d rows: (T(big) - T(small)) / (LB(big) -"
                  + " LB(small)) on medians (1.00 = the lower bound's rate)%n",
              (Long) marginal.get(0).get("from_rows"),
              (Long) marginal.get(0).get("to_rows")));
      String row = "%-8s %9s %9s %9s %9s %9s | %11s%n";
      out.append(
          String.format(
              Locale.ROOT, row, "case", "weaver", "merge", "hand", "uncond", "plan", "lower +s"));
      for (Map<String, Object> m : marginal) {
        out.append(
            String.format(
                Locale.ROOT,
                row,
                percent((Double) m.get("fraction")),
                fmt(m.get("weaver")),
                fmt(m.get("weaver_merge")),
                fmt(m.get("handwritten")),
                fmt(m.get("unconditional")),
                fmt(m.get("plan")),
                fmt(m.get("lower_bound_delta_s"))));
      }
      if (marginal.stream().anyMatch(m -> m.get("weaver_merge") == null)) {
        out.append(
            "(- : a median is missing, or the lower bound did not grow between the sizes)\n");
      }
    }
    return out.toString();
  }

  static String text(Workload workload, int runs, List<Case> cases) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s, median of %d run(s), %d cores; weaver = %s writer, merge = merge writer%n%n",
            workload.title(),
            runs,
            Runtime.getRuntime().availableProcessors(),
            LoadBenchmark.WEAVER_PATH));
    String row =
        "%-8s %9s %9s %9s %9s %9s %9s %9s | %6s %12s %12s %12s | %7s %7s %7s %7s %7s %7s %7s%n";
    out.append(
        String.format(
            Locale.ROOT,
            row,
            "case",
            "weaver s",
            "expect s",
            "merge s",
            "hand s",
            "uncond s",
            "lower s",
            "plan s",
            "w files",
            "w bytes",
            "hand bytes",
            "uncond bytes",
            "w/lower",
            "m/lower",
            "w/hand",
            "e/w",
            "u/w t",
            "u/w B",
            "p/lower"));
    for (Case c : cases) {
      Map<String, Object> f = fields(c);
      out.append(
          String.format(
              Locale.ROOT,
              row,
              caseName(c),
              fmt(f.get("weaver_s")),
              fmt(f.get("weaver_expectations_s")),
              fmt(f.get("weaver_merge_s")),
              fmt(f.get("handwritten_s")),
              fmt(f.get("unconditional_s")),
              fmt(f.get("lower_bound_s")),
              fmt(f.get("plan_s")),
              count(f.get("weaver_files_added")),
              count(f.get("weaver_bytes_added")),
              count(f.get("handwritten_bytes_added")),
              count(f.get("unconditional_bytes_added")),
              fmt(f.get("weaver_over_lower_bound")),
              fmt(f.get("weaver_merge_over_lower_bound")),
              fmt(f.get("ratio_weaver_handwritten")),
              fmt(f.get("weaver_expectations_over_weaver")),
              fmt(f.get("ratio_unconditional_weaver_time")),
              fmt(f.get("ratio_unconditional_weaver_bytes")),
              fmt(f.get("ratio_plan_lower_bound"))));
    }
    if (cases.stream().anyMatch(c -> c.delivery().steady())) {
      out.append(
          "\nAt f = 0 the timed Weaver load follows an untimed load of the same staging (a Table"
              + " whose loads find nothing to do); otherwise the Table has no load history.\n");
    }
    cases.stream()
        .filter(c -> c.weaverError() != null)
        .findFirst()
        .ifPresent(c -> out.append("\nNo direct writer: ").append(c.weaverError()).append('\n'));
    out.append("\nWeaver counts and jobs per load:\n");
    for (Case c : cases) {
      Map<String, Object> f = fields(c);
      out.append(
          String.format(
              Locale.ROOT,
              "  %-6s %s; weaver %s jobs, with expectations %s, merge %s, hand-written %s,"
                  + " unconditional %s, lower bound %s; output rows weaver %s, merge %s,"
                  + " unconditional %s (copied %s)%n",
              caseName(c),
              c.weaverCounts().isEmpty() ? c.weaverMergeCounts() : c.weaverCounts(),
              f.get("weaver_jobs"),
              f.get("weaver_expectations_jobs"),
              f.get("weaver_merge_jobs"),
              f.get("handwritten_jobs"),
              f.get("unconditional_jobs"),
              f.get("lower_bound_jobs"),
              f.get("weaver_output_rows"),
              f.get("weaver_merge_output_rows"),
              f.get("unconditional_output_rows"),
              f.get("unconditional_rows_copied")));
    }
    if (!workload.shape().expectations().isEmpty()) {
      out.append("\nexpect = weaver on a Table declaring ");
      out.append(
          String.join(
              ", ",
              workload.shape().expectations().stream()
                  .map(e -> e.action() + " `" + e.rule() + "`")
                  .toList()));
      out.append("; its counts, and its medians over weaver's (wall, CPU, Spark tasks' CPU):\n");
      for (Case c : cases) {
        Map<String, Object> f = fields(c);
        out.append(
            String.format(
                Locale.ROOT,
                "  %-6s %s; %s, %s, %s%n",
                caseName(c),
                c.weaverExpectationsCounts(),
                fmt(f.get("weaver_expectations_over_weaver")),
                fmt(f.get("weaver_expectations_over_weaver_cpu")),
                fmt(f.get("weaver_expectations_over_weaver_task_cpu"))));
      }
    }
    out.append(
        "\nPer load, medians: shuffle bytes written (Spark task metrics) / driver heap peak MB"
            + " (heap pools' peaks summed; after-GC peak in the JSON):\n");
    String perApproach = "%-8s" + " %22s".repeat(APPROACHES.size()) + "%n";
    List<Object> header = new ArrayList<>(List.of("case"));
    header.addAll(List.of("weaver", "w expect", "merge", "hand", "uncond", "lower", "plan"));
    out.append(String.format(Locale.ROOT, perApproach, header.toArray()));
    for (Case c : cases) {
      Map<String, Object> f = fields(c);
      List<Object> cells = new ArrayList<>(List.of(caseName(c)));
      for (String name : APPROACHES.keySet()) {
        Object shuffle = f.get(name + "_shuffle_bytes");
        Object heap = f.get(name + "_driver_heap_peak_bytes");
        cells.add(
            shuffle == null
                ? "-"
                : count(shuffle) + " / " + String.format(Locale.ROOT, "%,d", (Long) heap >> 20));
      }
      out.append(String.format(Locale.ROOT, perApproach, cells.toArray()));
    }
    return out.toString();
  }

  private static String percent(double f) {
    return String.format(Locale.ROOT, "%s%%", trim(f * 100));
  }

  private static String trim(double d) {
    String s = String.format(Locale.ROOT, "%.3f", d);
    return s.replaceAll("0+$", "").replaceAll("\\.$", "");
  }

  private static String fmt(Object number) {
    return number == null ? "-" : String.format(Locale.ROOT, "%.2f", (Double) number);
  }

  private static String count(Object number) {
    return number == null ? "-" : String.format(Locale.ROOT, "%,d", (Long) number);
  }

  static String toJson(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof Map<?, ?> map) {
      List<String> parts = new ArrayList<>();
      map.forEach((k, v) -> parts.add(toJson(k.toString()) + ": " + toJson(v)));
      return "{" + String.join(", ", parts) + "}";
    }
    if (value instanceof List<?> list) {
      List<String> parts = new ArrayList<>();
      list.forEach(v -> parts.add(toJson(v)));
      return "[" + String.join(", ", parts) + "]";
    }
    return toJson(value.toString());
  }
}
