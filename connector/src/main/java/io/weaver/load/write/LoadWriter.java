package io.weaver.load.write;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.expectations.StagingValidator;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadSpec;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * How a load ends, after the passes every load runs (validation, diff, gates): a {@link PlanWriter}
 * writes nothing and returns what a load would do (docs/plan.md); a {@link MergeWriter} commits the
 * changes with one Delta MERGE, a {@link DirectWriter} as new row versions and deletion vectors in
 * one commit. Chosen once per load ({@link #of}); the engine's passes call it at their end instead
 * of asking whether they plan.
 */
public interface LoadWriter {

  /**
   * The writer of {@code request}: the plan when it is one, else MERGE, which a keyed load may
   * trade for the direct path once its target's version is known ({@link #forKeyed}).
   */
  static LoadWriter of(SparkSession spark, LoadRequest request, WriteFaultPoints faults) {
    return request.planOnly() ? new PlanWriter(spark) : new MergeWriter(spark, faults);
  }

  /** Whether this writer only plans (a failure is then logged as a plan's). */
  boolean plans();

  /**
   * The writer of a keyed load whose diff reads {@code version}, asked before the diff so that a
   * path that cannot write the table fails the load before staging is read.
   */
  default LoadWriter forKeyed(LoadSpec spec, long version) {
    return this;
  }

  /**
   * The end of an unkeyed load: its live rows ({@code counts.liveBefore()} at {@code version})
   * replaced by {@code input}, without the rows its quarantine expectations keep out.
   */
  LoadOutcome replace(
      LoadRequest request,
      StagingValidator.Validated input,
      ChangeCounts counts,
      List<ExpectationCount> expectations,
      long version);

  /**
   * The end of a keyed load after its gates: {@code refusal} is the gates' refusal when they refuse
   * and are not waived.
   */
  LoadOutcome keyed(KeyedChanges changes, Optional<String> refusal, List<String> warnings);
}
