package io.weaver.load.write;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.spec.LoadTrace;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Commits a keyed load's changes on the direct path ({@link DirectWrite}): new row versions and
 * deletion vectors in one Delta commit. The target rows the load replaces are located while the
 * change set is fetched.
 */
public final class DirectWriter extends CommitWriter {
  /** The direct write of this load; set once something changes. */
  private DirectWrite direct;

  DirectWriter(SparkSession spark, WriteFaultPoints faults) {
    super(spark, faults);
  }

  @Override
  protected Optional<LoadOutcome> beforeFetch(KeyedChanges changes, List<String> warnings) {
    ChangeCounts counts = changes.counts();
    if (counts.changed() == 0) {
      return Optional.empty(); // only rejections: nothing to commit
    }
    direct =
        new DirectWrite(
            spark, changes.spec(), changes.request(), changes.detector(), changes.version());
    OptionalLong applied = direct.alreadyApplied();
    if (applied.isPresent()) {
      return Optional.of(
          alreadyApplied(spark, changes.spec(), changes.request(), applied.getAsLong(), warnings));
    }
    direct.locateAhead(changes.changedKeys(), counts);
    return Optional.empty();
  }

  @Override
  protected KeyedMerge.Result commit(
      KeyedChanges changes, Dataset<Row> accepted, Dataset<Row> source) {
    KeyedMerge.Result result =
        direct.write(
            CommitSession.open(
                spark, changes.request(), changes.counts(), changes.expectationCounts()),
            source,
            changes.counts());
    LoadTrace.mark("committed directly");
    return result;
  }

  @Override
  protected void release() {
    if (direct != null) {
      direct.release();
    }
  }
}
