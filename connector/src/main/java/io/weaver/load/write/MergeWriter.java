package io.weaver.load.write;

import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadTrace;
import io.weaver.session.JobLabels;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Commits a keyed load's changes with one Delta MERGE ({@link KeyedMerge}), narrowed by a filter on
 * the changing keys. A keyed load trades it for the {@link DirectWriter} when {@link WritePath}
 * chooses the direct path.
 */
public final class MergeWriter extends CommitWriter {

  MergeWriter(SparkSession spark, WriteFaultPoints faults) {
    super(spark, faults);
  }

  @Override
  public LoadWriter forKeyed(LoadSpec spec, long version) {
    return WritePath.choose(spark, spec, version) == WritePath.DIRECT
        ? new DirectWriter(spark, faults)
        : this;
  }

  @Override
  protected KeyedMerge.Result commit(
      KeyedChanges changes, Dataset<Row> accepted, Dataset<Row> source) {
    LoadSpec spec = changes.spec();
    LoadRequest request = changes.request();
    Optional<Column> keyFilter = ChangeSet.keyFilter(spec, accepted, changes.counts().changed());
    JobLabels.step(spark, "merge");
    KeyedMerge.Result result =
        new KeyedMerge(spec)
            .run(
                CommitSession.open(spark, request, changes.counts(), changes.expectationCounts()),
                source,
                request,
                keyFilter);
    LoadTrace.mark("merged");
    return result;
  }
}
