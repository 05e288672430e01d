package io.weaver.load;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The places a load can be stopped or made to fail ({@link LoadFaults.Phase}), as a hook the engine
 * is given. Loads run with {@link #NONE}; tests install {@link LoadFaults} (armed one phase at a
 * time) and {@link LoadRunner} and {@link LoadEngine} pick up what is installed when a load starts,
 * so no check of a test setting sits inside the engine's steps.
 */
public interface FaultPoints {
  /** Nothing stops, nothing fails. */
  FaultPoints NONE =
      new FaultPoints() {
        @Override
        public void stop(LoadFaults.Phase phase) {}

        @Override
        public void fail(LoadFaults.Phase phase) {}

        @Override
        public Dataset<Row> inTasks(LoadFaults.Phase phase, Dataset<Row> rows) {
          return rows;
        }
      };

  /** A stop point: the load ends here as if the process had died. */
  void stop(LoadFaults.Phase phase);

  /** A failure point on the driver: the load's own error handling runs. */
  void fail(LoadFaults.Phase phase);

  /** The rows a write job reads; a failure point makes its tasks throw. */
  Dataset<Row> inTasks(LoadFaults.Phase phase, Dataset<Row> rows);

  /** The fault points installed for loads starting now: {@link LoadFaults} when armed. */
  static FaultPoints installed() {
    return LoadFaults.armed() ? LoadFaults.HOOK : NONE;
  }
}
