package io.weaver.load.write;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.expectations.StagingValidator;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import io.weaver.session.JobLabels;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A plan's end (docs/plan.md): the outcome a load would report — a refused plan keeps the counts
 * the gates measured — and, when rows would be rejected, those rows fetched as the load would fetch
 * them. Nothing is written.
 */
public final class PlanWriter implements LoadWriter {
  private final SparkSession spark;

  PlanWriter(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public boolean plans() {
    return true;
  }

  @Override
  public LoadOutcome replace(
      LoadRequest request,
      StagingValidator.Validated input,
      ChangeCounts counts,
      List<ExpectationCount> expectations,
      long version) {
    return LoadOutcome.planned(
        LoadStatus.SUCCEEDED,
        counts,
        version,
        request.spec().tableName()
            + ": a load would replace "
            + counts.liveBefore()
            + " rows by "
            + counts.inserted()
            + " in one commit"
            + (counts.quarantined() > 0
                ? " and quarantine " + counts.quarantined() + " rows."
                : "."),
        List.of(),
        Optional.empty());
  }

  @Override
  public LoadOutcome keyed(KeyedChanges changes, Optional<String> refusal, List<String> warnings) {
    ChangeCounts counts = changes.counts();
    LoadSpec spec = changes.spec();
    Optional<Dataset<Row>> rejections = Optional.empty();
    if (counts.rejected() > 0) {
      JobLabels.step(spark, "fetch rejected rows");
      rejections = Optional.of(ChangeSet.rejections(spec, changes.changeSet()));
    }
    if (refusal.isPresent()) {
      return LoadOutcome.planned(
          LoadStatus.REFUSED, counts, changes.version(), refusal.get(), warnings, rejections);
    }
    String message =
        counts.changed() == 0
            ? spec.tableName() + ": no changes; a load would write nothing."
            : spec.tableName()
                + ": a load would write "
                + counts.changed()
                + " changed rows in one commit.";
    message += changes.staleNote();
    return LoadOutcome.planned(
        LoadStatus.SUCCEEDED, counts, changes.version(), message, warnings, rejections);
  }
}
