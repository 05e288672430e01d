package io.weaver.load;

import io.delta.tables.DeltaTable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Finds a load whose Delta commit landed but whose history was not written (the process stopped in
 * between): the newest Weaver receipt in the table's recent Delta history with a sequence beyond
 * the recorded state.
 */
final class LoadRecovery {
  /** How many recent commits to search; loads of one table are strictly sequential. */
  private static final int RECENT_COMMITS = 50;

  /** A committed load the history does not know yet. */
  record Unrecorded(CommitReceipt receipt, long version, Map<String, String> metrics) {}

  private LoadRecovery() {}

  static Optional<Unrecorded> find(SparkSession spark, String path, long recordedSequence) {
    List<Row> commits =
        DeltaTable.forPath(spark, path)
            .history(RECENT_COMMITS)
            .where(functions.col("userMetadata").contains("weaver_load"))
            .select("version", "userMetadata", "operationMetrics")
            .collectAsList();
    Unrecorded newest = null;
    for (Row commit : commits) {
      Optional<CommitReceipt> receipt = CommitReceipt.parse(commit.getString(1));
      if (receipt.isPresent()
          && receipt.get().sequence() > recordedSequence
          && (newest == null || receipt.get().sequence() > newest.receipt().sequence())) {
        Map<String, String> metrics = commit.isNullAt(2) ? Map.of() : commit.getJavaMap(2);
        newest = new Unrecorded(receipt.get(), commit.getLong(0), Map.copyOf(metrics));
      }
    }
    return Optional.ofNullable(newest);
  }
}
