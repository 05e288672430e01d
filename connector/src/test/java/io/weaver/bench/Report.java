package io.weaver.bench;

import io.weaver.bench.LoadBenchmark.Case;
import io.weaver.bench.LoadBenchmark.Measure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/** The benchmark's output: a text table or one JSON document. */
final class Report {
  private Report() {}

  static long medianLong(List<Measure> measures, ToLongFunction<Measure> f) {
    List<Long> s = measures.stream().map(f::applyAsLong).sorted().toList();
    return s.get((s.size() - 1) / 2);
  }

  static double median(List<Measure> measures, java.util.function.ToDoubleFunction<Measure> f) {
    List<Double> s = measures.stream().map(f::applyAsDouble).sorted().toList();
    int m = s.size() / 2;
    return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
  }

  static double min(List<Measure> measures) {
    return measures.stream().mapToDouble(Measure::seconds).min().orElse(Double.NaN);
  }

  static long bytes(List<Measure> m) {
    return medianLong(m, x -> x.metric("numTargetBytesAdded"));
  }

  static long files(List<Measure> m) {
    return medianLong(m, x -> x.metric("numTargetFilesAdded"));
  }

  static Double ratio(double a, double b) {
    return b == 0 ? null : a / b;
  }

  static Map<String, Object> fields(Case c) {
    Map<String, Object> m = new LinkedHashMap<>();
    double w = LoadBenchmark.median(c.weaver());
    double h = LoadBenchmark.median(c.hand());
    double u = LoadBenchmark.median(c.unconditional());
    double l = LoadBenchmark.median(c.lower());
    double p = LoadBenchmark.median(c.plan());
    m.put("fraction", c.fraction());
    m.put("weaver_s", round(w));
    m.put("handwritten_s", round(h));
    m.put("unconditional_s", round(u));
    m.put("lower_bound_s", round(l));
    m.put("plan_s", round(p));
    // Best of the runs: on a shared machine the minimum is the least disturbed measurement.
    m.put("weaver_min_s", round(min(c.weaver())));
    m.put("handwritten_min_s", round(min(c.hand())));
    m.put("unconditional_min_s", round(min(c.unconditional())));
    m.put("lower_bound_min_s", round(min(c.lower())));
    m.put("plan_min_s", round(min(c.plan())));
    m.put("weaver_files_added", files(c.weaver()));
    m.put("weaver_bytes_added", bytes(c.weaver()));
    m.put("unconditional_bytes_added", bytes(c.unconditional()));
    m.put("unconditional_files_added", files(c.unconditional()));
    m.put("handwritten_files_added", files(c.hand()));
    m.put("handwritten_bytes_added", bytes(c.hand()));
    m.put("weaver_output_rows", medianLong(c.weaver(), x -> x.metric("numOutputRows")));
    m.put("handwritten_output_rows", medianLong(c.hand(), x -> x.metric("numOutputRows")));
    m.put(
        "unconditional_output_rows", medianLong(c.unconditional(), x -> x.metric("numOutputRows")));
    m.put(
        "unconditional_rows_copied",
        medianLong(c.unconditional(), x -> x.metric("numTargetRowsCopied")));
    m.put("weaver_committed", medianLong(c.weaver(), x -> x.metric("committed")) == 1);
    // What the timed Weaver load knew of its Table's previous load (see LoadBenchmark.weaverLoad).
    m.put("weaver_previous_load", c.fraction() == 0 ? "changed nothing" : "none");
    m.put("weaver_jobs", medianLong(c.weaver(), Measure::jobs));
    m.put("handwritten_jobs", medianLong(c.hand(), Measure::jobs));
    m.put("unconditional_jobs", medianLong(c.unconditional(), Measure::jobs));
    m.put("lower_bound_jobs", medianLong(c.lower(), Measure::jobs));
    m.put("plan_jobs", medianLong(c.plan(), Measure::jobs));
    m.put("weaver_spark_busy_s", round(median(c.weaver(), Measure::busySeconds)));
    m.put("handwritten_spark_busy_s", round(median(c.hand(), Measure::busySeconds)));
    m.put("unconditional_spark_busy_s", round(median(c.unconditional(), Measure::busySeconds)));
    m.put("lower_bound_spark_busy_s", round(median(c.lower(), Measure::busySeconds)));
    m.put("weaver_input_bytes", medianLong(c.weaver(), Measure::inputBytes));
    m.put("lower_bound_input_bytes", medianLong(c.lower(), Measure::inputBytes));
    m.put("weaver_counts", c.weaverCounts());
    m.put("ratio_weaver_lower_bound", round(ratio(w, l)));
    m.put("ratio_weaver_handwritten", round(ratio(w, h)));
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

  static String json(long rows, int runs, List<Case> cases) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("rows", rows);
    doc.put("runs", runs);
    doc.put("cores", Runtime.getRuntime().availableProcessors());
    List<Object> list = new ArrayList<>();
    cases.forEach(c -> list.add(fields(c)));
    doc.put("cases", list);
    return toJson(doc);
  }

  static String text(long rows, int runs, List<Case> cases) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Snapshot load of %,d target rows, median of %d run(s), %d cores%n%n",
            rows,
            runs,
            Runtime.getRuntime().availableProcessors()));
    out.append(
        String.format(
            Locale.ROOT,
            "%-8s %9s %9s %9s %9s %9s | %6s %12s %12s %12s | %7s %7s %7s %7s %7s%n",
            "fraction",
            "weaver s",
            "hand s",
            "uncond s",
            "lower s",
            "plan s",
            "w files",
            "w bytes",
            "hand bytes",
            "uncond bytes",
            "w/lower",
            "w/hand",
            "u/w t",
            "u/w B",
            "p/lower"));
    for (Case c : cases) {
      Map<String, Object> f = fields(c);
      out.append(
          String.format(
              Locale.ROOT,
              "%-8s %9.2f %9.2f %9.2f %9.2f %9.2f | %6d %,12d %,12d %,12d | %7s %7s %7s %7s %7s%n",
              percent(c.fraction()),
              (Double) f.get("weaver_s"),
              (Double) f.get("handwritten_s"),
              (Double) f.get("unconditional_s"),
              (Double) f.get("lower_bound_s"),
              (Double) f.get("plan_s"),
              (Long) f.get("weaver_files_added"),
              (Long) f.get("weaver_bytes_added"),
              (Long) f.get("handwritten_bytes_added"),
              (Long) f.get("unconditional_bytes_added"),
              fmt(f.get("ratio_weaver_lower_bound")),
              fmt(f.get("ratio_weaver_handwritten")),
              fmt(f.get("ratio_unconditional_weaver_time")),
              fmt(f.get("ratio_unconditional_weaver_bytes")),
              fmt(f.get("ratio_plan_lower_bound"))));
    }
    out.append(
        "\nAt f = 0 the timed Weaver load follows an untimed load of the same staging (a Table whose"
            + " loads find nothing to do); at f > 0 the Table has no load history.\n");
    out.append("\nWeaver counts and jobs per load:\n");
    for (Case c : cases) {
      Map<String, Object> f = fields(c);
      out.append(
          String.format(
              Locale.ROOT,
              "  %-6s %s; weaver %s jobs, hand-written %s, unconditional %s, lower bound %s;"
                  + " output rows weaver %s, unconditional %s (copied %s)%n",
              percent(c.fraction()),
              c.weaverCounts(),
              f.get("weaver_jobs"),
              f.get("handwritten_jobs"),
              f.get("unconditional_jobs"),
              f.get("lower_bound_jobs"),
              f.get("weaver_output_rows"),
              f.get("unconditional_output_rows"),
              f.get("unconditional_rows_copied")));
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

  private static String fmt(Object ratio) {
    return ratio == null ? "-" : String.format(Locale.ROOT, "%.2f", (Double) ratio);
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
