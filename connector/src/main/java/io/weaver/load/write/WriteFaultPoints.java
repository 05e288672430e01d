package io.weaver.load.write;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The fault point of a write, as the writers see it: the engine's {@code
 * io.weaver.load.FaultPoints} extends it, so a writer is handed the load's points without knowing
 * the engine.
 */
public interface WriteFaultPoints {
  /**
   * The rows a write job (the MERGE, the direct write or the overwrite) reads; a failure point
   * makes the job's tasks throw.
   */
  default Dataset<Row> duringWrite(Dataset<Row> rows) {
    return rows;
  }
}
