package io.weaver.catalyst.compat;

import java.util.Optional;
import org.apache.spark.sql.catalyst.QueryPlanningTracker;
import org.apache.spark.sql.catalyst.QueryPlanningTracker$;
import scala.Option;

/** Which query Spark is planning on this thread, if any. */
public final class Analyses {
  private Analyses() {}

  /**
   * An object that stands for the query being analysed on this thread: the same for every table its
   * analysis resolves (the views it expands included), another for the next query; empty outside a
   * query's planning (a table loaded before any query, as {@code format("weaver")} does). Compare
   * it by identity only.
   */
  public static Optional<Object> current() {
    Option<QueryPlanningTracker> tracker = QueryPlanningTracker$.MODULE$.get();
    return tracker.isDefined() ? Optional.of(tracker.get()) : Optional.empty();
  }
}
