package io.weaver.load.spec;

import java.util.Map;
import org.apache.spark.sql.Observation;

/** The values of an observation, once its job ran: the counts the load's passes read. */
public final class Observed {
  private Observed() {}

  public static Map<String, Object> of(Observation observation) {
    try {
      return observation.getAsJava();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the load's counts", e);
    }
  }
}
