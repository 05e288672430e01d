package io.weaver.load.spec;

import io.weaver.session.WeaverConf;

/**
 * Driver-side timing marks of a load, printed to stderr when the JVM runs with {@code
 * -Dweaver.trace=true} (used to find where a load's fixed cost goes; see docs/performance.md).
 */
public final class LoadTrace {
  private static final boolean ON = WeaverConf.trace();
  private static final ThreadLocal<Long> START = new ThreadLocal<>();

  private LoadTrace() {}

  public static void start() {
    if (ON) {
      START.set(System.nanoTime());
      System.err.println("[trace] +0 ms load start");
    }
  }

  public static void mark(String what) {
    if (ON) {
      Long s = START.get();
      long ms = s == null ? -1 : (System.nanoTime() - s) / 1_000_000;
      System.err.println(
          "[trace] +" + ms + " ms " + what + " [" + Thread.currentThread().getName() + "]");
    }
  }

  /**
   * After {@code rows} ran: each physical operator of its plan with its SQL metrics (times, rows,
   * sizes), adaptive query stages included.
   */
  public static void plan(String what, org.apache.spark.sql.Dataset<?> rows) {
    if (ON) {
      StringBuilder out = new StringBuilder("[trace] plan of " + what + ":\n");
      walk(rows.queryExecution().executedPlan(), 1, out);
      System.err.print(out);
    }
  }

  private static void walk(
      org.apache.spark.sql.execution.SparkPlan node, int depth, StringBuilder out) {
    StringBuilder metrics = new StringBuilder();
    scala.jdk.javaapi.CollectionConverters.asJava(node.metrics())
        .forEach(
            (name, metric) -> {
              if (metric.value() != 0) {
                metrics.append(' ').append(name).append('=').append(metric.value());
              }
            });
    out.append("  ".repeat(depth)).append(node.nodeName()).append(metrics).append('\n');
    if (node instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec adaptive) {
      walk(adaptive.executedPlan(), depth + 1, out);
    } else if (node instanceof org.apache.spark.sql.execution.adaptive.QueryStageExec stage) {
      walk(stage.plan(), depth + 1, out);
    } else if (node instanceof org.apache.spark.sql.execution.WholeStageCodegenExec codegen) {
      walk(codegen.child(), depth + 1, out);
    } else {
      scala.jdk.javaapi.CollectionConverters.asJava(node.children())
          .forEach(child -> walk(child, depth + 1, out));
    }
  }
}
