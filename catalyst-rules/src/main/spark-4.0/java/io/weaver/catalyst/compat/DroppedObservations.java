package io.weaver.catalyst.compat;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.catalyst.plans.logical.CollectMetrics;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.ExecutionListenerManager;
import org.apache.spark.sql.util.QueryExecutionListener;
import scala.runtime.BoxedUnit;

/**
 * Spark 4.0 only: completes, with no metrics, an observation {@link SparkLine#observe} made whose
 * node was in a finished query's plan but collected nothing because the optimizer removed it (an
 * observed provably empty relation, such as the empty staging of a load that returned only delete
 * keys). Spark 4.0's own listener completes an observation only from collected metrics, so {@link
 * Observation#get} would wait forever; Spark 4.1 completes it empty, as this does. One listener per
 * session's listener manager (the session that runs the queries over the observed Dataset).
 */
final class DroppedObservations implements QueryExecutionListener {
  /** Observations not completed yet, by name (Weaver's names are unique). */
  private static final Map<String, Observation> PENDING = new ConcurrentHashMap<>();

  private static final Map<ExecutionListenerManager, Boolean> LISTENING =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** What {@link Observation#get} turns into an empty map (Spark 4.0 reads the row's schema). */
  private static final Row NO_METRICS = new GenericRowWithSchema(new Object[0], new StructType());

  private DroppedObservations() {}

  static void track(SparkSession session, Observation observation) {
    ExecutionListenerManager listeners = session.listenerManager();
    synchronized (LISTENING) {
      if (LISTENING.putIfAbsent(listeners, Boolean.TRUE) == null) {
        listeners.register(new DroppedObservations());
      }
    }
    PENDING.put(observation.name(), observation);
  }

  @Override
  public void onSuccess(String funcName, QueryExecution qe, long durationNs) {
    complete(qe);
  }

  @Override
  public void onFailure(String funcName, QueryExecution qe, Exception exception) {
    complete(qe);
  }

  private static void complete(QueryExecution qe) {
    if (PENDING.isEmpty()) {
      return;
    }
    scala.collection.immutable.Map<String, Row> collected = qe.observedMetrics();
    qe.logical()
        .foreach(
            plan -> {
              if (plan instanceof CollectMetrics node) {
                Observation observation = PENDING.remove(node.name());
                // Collected: Spark's own listener completes the observation with the metrics.
                if (observation != null && !collected.contains(node.name())) {
                  observation.setMetricsAndNotify(NO_METRICS);
                }
              }
              return BoxedUnit.UNIT;
            });
  }
}
