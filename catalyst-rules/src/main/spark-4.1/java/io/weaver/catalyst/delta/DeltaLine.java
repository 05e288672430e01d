package io.weaver.catalyst.delta;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.FileAction;
import org.apache.spark.sql.delta.commands.DMLWithDeletionVectorsHelper$;
import org.apache.spark.sql.delta.commands.TouchedFileWithDV;
import org.apache.spark.sql.delta.stats.StatsCollectionUtils$;
import scala.Option;
import scala.Tuple2;
import scala.collection.immutable.Map;
import scala.collection.immutable.Seq;

/**
 * What differs between Delta lines in the internal API the direct writer uses; this copy is for
 * Delta 4.2 and later (Spark 4.1+); src/main/spark-4.0 holds Delta 4.0's, with the same signatures.
 */
public final class DeltaLine {
  private DeltaLine() {}

  /** The snapshot of {@code log} at {@code version}, not the latest one. */
  static Snapshot snapshotAt(DeltaLog log, long version) {
    return log.getSnapshotAt(version, Option.empty(), Option.empty(), false);
  }

  /**
   * The actions that give the {@code touched} files of {@code txn}'s snapshot their new deletion
   * vectors, and Delta's metrics of them. Delta 4.2 truncates the copied string statistics to the
   * table's data-skipping prefix length, which it takes as an argument.
   */
  static Tuple2<Seq<FileAction>, Map<String, Object>> keepUnmarkedRows(
      SparkSession spark, OptimisticTransaction txn, Seq<TouchedFileWithDV> touched) {
    return DMLWithDeletionVectorsHelper$.MODULE$.processUnmodifiedData(
        spark,
        touched,
        txn.snapshot(),
        StatsCollectionUtils$.MODULE$.getDataSkippingStringPrefixLength(spark, txn.metadata()));
  }
}
