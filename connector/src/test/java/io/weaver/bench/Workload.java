package io.weaver.bench;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What one benchmark measures: a keyed target (its shape and its original rows) and the snapshot
 * deliveries loaded into copies of it. {@link LoadBenchmark} runs every approach over every
 * delivery the same way whatever the workload.
 */
interface Workload {
  /** {@code synthetic} or {@code tpch}: the JSON document's {@code workload}. */
  String name();

  TableShape shape();

  /** Rows of the target before any delivery. */
  long rows();

  /** The target's original rows, laid out as the masters' files should be. */
  Dataset<Row> base();

  /** Files per master (the layout {@link #base} produces), for the log. */
  int files();

  /** The deliveries, each measured as one case. */
  List<Delivery> deliveries();

  /** Top-level JSON fields beside {@code workload} (e.g. the TPC-H scale). */
  default Map<String, Object> describe() {
    return Map.of();
  }

  /** The text report's first line. */
  String title();

  /**
   * One snapshot delivery.
   *
   * @param label the case's name in logs and folder names
   * @param fraction the share of the target's rows it changes (nominal)
   * @param delivery the TPC-H refresh name ({@code rf1}, {@code rf2}, {@code update}), or null
   * @param steady whether the timed Weaver load follows an untimed load of the same staging (a
   *     Table whose loads find nothing to do; see {@code LoadBenchmark.weaverLoad})
   * @param staging the staging rows (lazy; written to Parquet once per case)
   */
  record Delivery(
      String label, double fraction, String delivery, boolean steady, Dataset<Row> staging) {}
}
