package io.weaver.load;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.expectations.RowExpectations;
import io.weaver.load.expectations.StagingValidator;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.records.QuarantineRecords;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import io.weaver.load.spec.LoadTrace;
import io.weaver.load.write.CommitConflicts;
import io.weaver.load.write.CommitWriter;
import io.weaver.load.write.LoadWriter;
import io.weaver.session.Evaluation;
import io.weaver.session.JobLabels;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one load to its Delta table (docs/table-contract.md, "Load"): validate, detect changes in
 * one pass, gate, then write only the changes in one commit. This class decides which kind of load
 * it is (already applied, no work, unkeyed replace, keyed); a keyed load's passes are {@link
 * KeyedLoad}.
 *
 * <p>Spark jobs of a keyed load: one over the join of narrow staging (key, unique-key columns,
 * signature; and delete keys) with the target's key/signature/delete-time columns, which observes
 * the validation and change counts in the same pass and caches the changing keys; when something
 * changes, one that fetches the changing rows from staging into a checkpoint; then the MERGE, which
 * reads the checkpoint. Sample queries run only for failing input.
 */
public final class LoadEngine {
  private static final Logger LOG = LoggerFactory.getLogger(LoadEngine.class);

  private final FaultPoints faults;
  private final LoadWriter writer;

  private LoadEngine(FaultPoints faults, LoadWriter writer) {
    this.faults = faults;
    this.writer = writer;
  }

  /**
   * Runs the load with the given fault points ({@link FaultPoints#NONE} unless a test installed
   * some); never throws for bad input or refused gates (see the outcome's status).
   */
  static LoadOutcome apply(SparkSession spark, LoadRequest request, FaultPoints faults) {
    LoadOutcome outcome;
    try {
      outcome = applyOnce(spark, request, faults);
    } catch (Exception e) {
      // Spark's own exceptions (a failed write job) reach the caller, which records the failure;
      // rows this load quarantined must not outlive it.
      request.quarantine().ifPresent(QuarantineRecords::withdraw);
      throw e;
    }
    if (!outcome.committed() && outcome.status() == LoadStatus.FAILED) {
      request.quarantine().ifPresent(QuarantineRecords::withdraw);
    }
    return outcome;
  }

  private static LoadOutcome applyOnce(
      SparkSession spark, LoadRequest request, FaultPoints faults) {
    LoadSpec spec = request.spec();
    LoadWriter writer = LoadWriter.of(spark, request, faults);
    try {
      return new LoadEngine(faults, writer).run(spark, request);
    } catch (LoadFailure failure) {
      return failed(spark, spec, failure.getMessage());
    } catch (RuntimeException e) {
      LoadAttempt.logFailure(LOG, spec.tableName(), request.loadId(), writer.plans(), e);
      String detail = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
      String message = spec.tableName() + ": load failed, nothing recorded: " + detail;
      if (CommitConflicts.isConflict(e)) {
        return LoadOutcome.conflicted(currentVersion(spark, spec), message);
      }
      return failed(spark, spec, message);
    }
  }

  private LoadOutcome run(SparkSession spark, LoadRequest request) {
    LoadSpec spec = request.spec();
    LoadTrace.mark("engine start");
    JobLabels.step(spark, "target version");
    DeltaLogProbe log = DeltaLogProbe.latest(spark, spec.tableName(), spec.targetPath());
    long version = log.version();
    long applied = log.lastTxnVersion(request.txnAppId());
    if (applied >= request.loadSequence()) {
      return LoadOutcome.withoutChanges(
          LoadStatus.SUCCEEDED,
          CommitWriter.liveRows(spark, spec, version),
          version,
          spec.tableName()
              + ": load sequence "
              + request.loadSequence()
              + " was already applied (the table's last is "
              + applied
              + "); nothing written.",
          List.of());
    }
    if (request.staging() == null && request.deleteKeys().isEmpty()) {
      return LoadOutcome.withoutChanges(
          LoadStatus.NO_WORK,
          CommitWriter.liveRows(spark, spec, version),
          version,
          spec.tableName() + ": the body returned no work.",
          List.of());
    }
    Dataset<Row> staging =
        request.staging() != null
            ? request.staging()
            : spark.createDataFrame(List.of(), spec.businessSchema());
    // Staging from outside a small lakehouse may be large: compiled code from here on.
    Evaluation.forInput(spark, staging);
    StagingValidator validator = new StagingValidator(spec);
    if (!spec.keyed()) {
      JobLabels.step(spark, "replace");
      return replace(spark, request, validator.validate(staging, request.deleteKeys()), version);
    }
    if (!staging.queryExecution().analyzed().deterministic()) {
      // The change set is fetched by a second read of staging; pin a non-deterministic body's
      // rows so both reads see the same ones.
      staging = staging.localCheckpoint(true);
    }
    LoadTrace.mark("engine probe done");
    RowExpectations expectations = new RowExpectations(spec);
    StagingValidator.Prepared prepared =
        validator.prepare(staging, request.deleteKeys(), expectations);
    LoadTrace.mark("prepared");
    return new KeyedLoad(spark, request, validator, prepared, expectations, version, faults, writer)
        .run();
  }

  /** An unkeyed load: its live rows replaced by staging's, ended by the writer. */
  private LoadOutcome replace(
      SparkSession spark, LoadRequest request, StagingValidator.Validated input, long version) {
    LoadSpec spec = request.spec();
    long liveBefore = CommitWriter.liveRows(spark, spec, version);
    RowExpectations expectations = new RowExpectations(spec);
    List<ExpectationCount> expected = expectations.verdict(input.rowCount(), input.rows());
    request.quarantine().ifPresent(q -> q.countsAhead(spark, expected));
    long quarantined = expectations.quarantinedRows(input.rows());
    ChangeCounts counts =
        ChangeCounts.builder()
            .inserted(input.rowCount() - quarantined)
            .deleted(liveBefore)
            .liveBefore(liveBefore)
            .quarantined(quarantined)
            .build();
    return writer.replace(request, input, counts, expected, version).withExpectations(expected);
  }

  private static LoadOutcome failed(SparkSession spark, LoadSpec spec, String message) {
    return LoadOutcome.withoutChanges(
        LoadStatus.FAILED, 0, currentVersion(spark, spec), message, List.of());
  }

  /** The target's version after a failure, -1 when it cannot be read (best effort). */
  private static long currentVersion(SparkSession spark, LoadSpec spec) {
    try {
      return DeltaLogProbe.latest(spark, spec.tableName(), spec.targetPath()).version();
    } catch (RuntimeException ignored) {
      return -1; // the failure message already says what is wrong
    }
  }
}
