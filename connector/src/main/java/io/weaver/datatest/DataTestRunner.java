package io.weaver.datatest;

import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.DataTestDeclaration;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.session.JobLabels;
import io.weaver.workspace.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Test (docs/table-contract.md, "Test"): runs the generated tests of the Lakehouse Tables in scope
 * and the authored tests in scope against live rows, executing no Table body. Each test costs one
 * counting job, plus one {@code limit} job for its sample when it fails; rows are never collected
 * beyond the sample.
 *
 * <p>A test that cannot run — its Table or a foreign-key parent not built, a {@code Files/} parent,
 * an authored query Spark refuses — is reported {@code failed} with a message, never passed.
 */
public final class DataTestRunner {
  private final SparkSession spark;
  private final WorkspaceModel model;
  private final Consumer<String> progress;
  private final GeneratedTests generated;
  private final AuthoredTests authored;

  public DataTestRunner(
      SparkSession spark, WorkspaceModel model, LakehouseLayout layout, Consumer<String> progress) {
    this.spark = spark;
    this.model = model;
    this.progress = progress;
    this.generated = new GeneratedTests(spark, layout);
    this.authored = new AuthoredTests(spark);
  }

  /**
   * Runs the tests of the Tables {@code tables} accepts (model order), then the authored tests
   * {@code tests} accepts. Warehouse Tables have no Delta table to read and are left out.
   */
  public List<DataTestResult> run(
      Predicate<TableDeclaration> tables, Predicate<DataTestDeclaration> tests) {
    List<Probe> probes = new ArrayList<>();
    model.tables().stream()
        .filter(t -> t.target() == Target.LAKEHOUSE)
        .filter(tables)
        .forEach(t -> probes.addAll(generated.of(t)));
    model.tests().stream()
        .filter(t -> t.source().target() == Target.LAKEHOUSE)
        .filter(tests)
        .forEach(t -> probes.add(authored.of(t)));
    List<DataTestResult> results = new ArrayList<>();
    for (Probe probe : probes) {
      progress.accept("testing " + probe.testId());
      try (JobLabels.Scope label = JobLabels.open(spark, "test", probe.testId())) {
        results.add(run(probe));
      }
    }
    return results;
  }

  private DataTestResult run(Probe probe) {
    try {
      Dataset<Row> violations = probe.violations().get();
      long count = violations.count();
      if (count == 0) {
        return result(probe, DataTestResult.PASSED, 0, List.of(), null);
      }
      List<Row> sample = violations.limit(DataTestResult.SAMPLE_SIZE).collectAsList();
      return result(probe, DataTestResult.FAILED, count, sample, null);
    } catch (Probe.Unavailable e) {
      return result(probe, DataTestResult.FAILED, 0, List.of(), e.getMessage());
    } catch (RuntimeException e) {
      // An analysis error in an authored query, a parent column that does not exist …
      String why = e.getMessage() == null ? e.toString() : e.getMessage();
      return result(
          probe, DataTestResult.FAILED, 0, List.of(), probe.testId() + " could not run: " + why);
    }
  }

  private static DataTestResult result(
      Probe probe, String status, long count, List<Row> sample, String message) {
    return new DataTestResult(
        probe.testId(),
        probe.tableId(),
        probe.kind(),
        probe.severity(),
        status,
        count,
        SampleRows.of(sample),
        message);
  }
}
