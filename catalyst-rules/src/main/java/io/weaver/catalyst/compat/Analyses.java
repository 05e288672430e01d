package io.weaver.catalyst.compat;

import org.apache.spark.sql.catalyst.analysis.AnalysisContext$;

/** Which analysis of a query is running on this thread, as Spark's analyser keeps it. */
public final class Analyses {
  private Analyses() {}

  /**
   * An object that stands for the analysis running on this thread: the same for every table that
   * analysis resolves (the views it expands included, which share their query's relation cache),
   * another for the next query. Compare it by identity only.
   */
  public static Object current() {
    return AnalysisContext$.MODULE$.get().relationCache();
  }
}
