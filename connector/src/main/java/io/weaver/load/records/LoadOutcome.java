package io.weaver.load.records;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.spec.GateVerdict;
import io.weaver.load.spec.LoadStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The result of one load as the engine decided it (the data half of a {@code _.LoadHistory} row).
 * Built by name through the factories below, never by position.
 */
public final class LoadOutcome {
  private final LoadStatus status;
  private final ChangeCounts counts;
  private final long deltaVersion;
  private final boolean committed;
  private final String message;
  private final List<String> warnings;
  private final Optional<Dataset<Row>> rejections;
  private final boolean conflicted;
  private final List<GateVerdict> gates;
  private final List<ExpectationCount> expectations;

  private LoadOutcome(
      LoadStatus status,
      ChangeCounts counts,
      long deltaVersion,
      boolean committed,
      String message,
      List<String> warnings,
      Optional<Dataset<Row>> rejections,
      boolean conflicted,
      List<GateVerdict> gates,
      List<ExpectationCount> expectations) {
    this.status = status;
    this.counts = counts;
    this.deltaVersion = deltaVersion;
    this.committed = committed;
    this.message = message;
    this.warnings = List.copyOf(warnings);
    this.rejections = rejections;
    this.conflicted = conflicted;
    this.gates = List.copyOf(gates);
    this.expectations = List.copyOf(expectations);
  }

  /** A load that changed no row: {@code liveRows} before and after, at {@code version}. */
  public static LoadOutcome withoutChanges(
      LoadStatus status, long liveRows, long version, String message, List<String> warnings) {
    return new LoadOutcome(
        status,
        ChangeCounts.none(liveRows),
        version,
        false,
        message,
        warnings,
        Optional.empty(),
        false,
        List.of(),
        List.of());
  }

  /** A load that committed {@code counts} as {@code version}. */
  public static LoadOutcome committed(
      ChangeCounts counts,
      long version,
      String message,
      List<String> warnings,
      Optional<Dataset<Row>> rejections) {
    return new LoadOutcome(
        LoadStatus.SUCCEEDED,
        counts,
        version,
        true,
        message,
        warnings,
        rejections,
        false,
        List.of(),
        List.of());
  }

  /** A load that counted rows (unchanged, rejected) but had nothing to write. */
  public static LoadOutcome nothingToWrite(
      ChangeCounts counts,
      long version,
      String message,
      List<String> warnings,
      Optional<Dataset<Row>> rejections) {
    return new LoadOutcome(
        LoadStatus.SUCCEEDED,
        counts,
        version,
        false,
        message,
        warnings,
        rejections,
        false,
        List.of(),
        List.of());
  }

  /**
   * A load whose commit lost to a concurrent one (Delta raised one of its concurrent-modification
   * exceptions): nothing was applied; {@code CommitConflicts} says who won.
   */
  public static LoadOutcome conflicted(long version, String message) {
    return new LoadOutcome(
        LoadStatus.FAILED,
        ChangeCounts.none(0),
        version,
        false,
        message,
        List.of(),
        Optional.empty(),
        true,
        List.of(),
        List.of());
  }

  /**
   * What a load would have done, from a plan that stopped before the write (docs/plan.md): the
   * status it would end with, its counts and, when rows would be rejected, those rows.
   */
  public static LoadOutcome planned(
      LoadStatus status,
      ChangeCounts counts,
      long version,
      String message,
      List<String> warnings,
      Optional<Dataset<Row>> rejections) {
    return new LoadOutcome(
        status, counts, version, false, message, warnings, rejections, false, List.of(), List.of());
  }

  /** This outcome with the gates' measurements of its load. */
  public LoadOutcome withGates(List<GateVerdict> measured) {
    return new LoadOutcome(
        status,
        counts,
        deltaVersion,
        committed,
        message,
        warnings,
        rejections,
        conflicted,
        measured,
        expectations);
  }

  /** This outcome with the counts of the Table's expectations. */
  public LoadOutcome withExpectations(List<ExpectationCount> counted) {
    return new LoadOutcome(
        status,
        counts,
        deltaVersion,
        committed,
        message,
        warnings,
        rejections,
        conflicted,
        gates,
        counted);
  }

  /** The rows violating each expectation; empty when the Table declares none or none were run. */
  public List<ExpectationCount> expectations() {
    return expectations;
  }

  /** Each stability gate's measurement; empty when the load did not reach the gates. */
  public List<GateVerdict> gates() {
    return gates;
  }

  /** Whether Delta refused the commit because another one won (by exception type). */
  public boolean conflicted() {
    return conflicted;
  }

  /** This outcome with one more warning. */
  LoadOutcome withWarning(String warning) {
    List<String> more = new ArrayList<>(warnings);
    more.add(warning);
    return new LoadOutcome(
        status,
        counts,
        deltaVersion,
        committed,
        message,
        more,
        rejections,
        conflicted,
        gates,
        expectations);
  }

  /** {@code succeeded}, {@code no_work}, {@code refused} or {@code failed}. */
  public LoadStatus status() {
    return status;
  }

  public ChangeCounts counts() {
    return counts;
  }

  public long rowsInserted() {
    return counts.inserted();
  }

  public long rowsUpdated() {
    return counts.updated();
  }

  public long rowsDeleted() {
    return counts.deleted();
  }

  public long rowsRevived() {
    return counts.revived();
  }

  public long rowsUnchanged() {
    return counts.unchanged();
  }

  public long rowsRejected() {
    return counts.rejected();
  }

  public long targetLiveRowsBefore() {
    return counts.liveBefore();
  }

  public long targetLiveRowsAfter() {
    return counts.liveAfter();
  }

  /** The table version after the load (the current one when nothing was written). */
  public long deltaVersion() {
    return deltaVersion;
  }

  /** Whether this load made a Delta commit. */
  public boolean committed() {
    return committed;
  }

  public String message() {
    return message;
  }

  public List<String> warnings() {
    return warnings;
  }

  /**
   * Rows for {@code _.LoadRejection} ({@code reason, key_json, row_json}); the caller writes them.
   */
  public Optional<Dataset<Row>> rejections() {
    return rejections;
  }

  @Override
  public String toString() {
    return "LoadOutcome["
        + status
        + ", "
        + counts
        + ", version "
        + deltaVersion
        + ", "
        + message
        + "]";
  }
}
