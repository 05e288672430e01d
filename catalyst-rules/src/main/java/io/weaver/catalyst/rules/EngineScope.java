package io.weaver.catalyst.rules;

import org.apache.spark.sql.SparkSession;

/**
 * Where Weaver's own engine is at work, which the rules leave alone: its writes must assign managed
 * columns and see every row. Implemented by the session extension from the connector's markers.
 */
public interface EngineScope {
  /**
   * Whether {@code session} is one the engine writes through (a load's MERGE, Build's re-sign
   * UPDATE); none of the rules apply there.
   */
  boolean isEngineSession(SparkSession session);
}
