package io.weaver.load.records;

import io.weaver.catalogue.LoadResultField;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.spec.LoadStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * The result row of one load (docs/table-contract.md, "Load"), with the names of {@code
 * _.LoadHistory}.
 *
 * @param tableId item-qualified, {@code Item.Schema.Object}
 * @param deltaVersion the watermark: a read at this version or later observes the load
 * @param expectations rows violating each of the Table's expectations (empty when it declares none,
 *     or the load did not get as far as counting them)
 */
public record LoadResult(
    String loadId,
    String tableId,
    LoadStatus status,
    ChangeCounts counts,
    long targetLiveRowsAfter,
    long deltaVersion,
    boolean gatesWaived,
    long durationMs,
    String message,
    List<String> warnings,
    Instant startedAt,
    Instant loadTimestamp,
    List<ExpectationCount> expectations) {

  public LoadResult {
    warnings = List.copyOf(warnings);
    expectations = expectations == null ? List.of() : List.copyOf(expectations);
  }

  /** A result with no rows counted, no Delta version (-1) and no message; set the rest by name. */
  public static Builder builder(String loadId, String tableId, LoadStatus status) {
    return new Builder(loadId, tableId, status);
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

  /** Staging rows kept out of the Table by a quarantine expectation. */
  public long rowsQuarantined() {
    return counts.quarantined();
  }

  /**
   * Staging rows not applied because their key has a row with a higher sequence value (the
   * target's, or a newer one of the same delivery).
   */
  public long rowsStale() {
    return counts.stale();
  }

  /** A failed, refused or skipped load stops its dependants. */
  public boolean stopsDependants() {
    return status.stopsDependants();
  }

  /** A load the command line reports as a failure (exit code 1). */
  public boolean isFailure() {
    return status.isFailure();
  }

  /** This result with one more warning. */
  public LoadResult withWarning(String warning) {
    List<String> more = new java.util.ArrayList<>(warnings);
    more.add(warning);
    return new LoadResult(
        loadId,
        tableId,
        status,
        counts,
        targetLiveRowsAfter,
        deltaVersion,
        gatesWaived,
        durationMs,
        message,
        more,
        startedAt,
        loadTimestamp,
        expectations);
  }

  /**
   * The value of {@code field} as this record holds it (an {@link Instant}, a list of {@link
   * ExpectationCount}s); {@link ResultValues} turns it into JSON or a row value. A field only a
   * plan shows, or {@code finished_at} (known when the history row is written), has none here.
   */
  public Object value(LoadResultField field) {
    return switch (field) {
      case LOAD_ID -> loadId;
      case TABLE_ID -> tableId;
      case STATUS -> status.text();
      case STARTED_AT -> startedAt;
      case LOAD_TIMESTAMP -> loadTimestamp;
      case ROWS_INSERTED -> rowsInserted();
      case ROWS_UPDATED -> rowsUpdated();
      case ROWS_DELETED -> rowsDeleted();
      case ROWS_REVIVED -> rowsRevived();
      case ROWS_UNCHANGED -> rowsUnchanged();
      case ROWS_REJECTED -> rowsRejected();
      case TARGET_LIVE_ROWS_BEFORE -> targetLiveRowsBefore();
      case TARGET_LIVE_ROWS_AFTER -> targetLiveRowsAfter;
      case DELTA_VERSION -> deltaVersion;
      case GATES_WAIVED -> gatesWaived;
      case DURATION_MS -> durationMs;
      case MESSAGE -> message;
      case WARNINGS -> warnings;
      case ROWS_QUARANTINED -> rowsQuarantined();
      case ROWS_STALE -> rowsStale();
      case EXPECTATIONS -> expectations;
      case FINISHED_AT, GATES, REJECTIONS, NOTES, HISTORY_VERSIONS ->
          throw new IllegalArgumentException("a load's result has no " + field.column());
    };
  }

  /**
   * The facts of this load's error when it did not succeed ({@link LoadStatus#errorClass()}): its
   * Table, id and status.
   */
  public Map<ErrorParameter, String> errorFacts() {
    return ErrorFacts.of(
        ErrorParameter.TABLE,
        tableId,
        ErrorParameter.LOAD_ID,
        loadId,
        ErrorParameter.STATUS,
        status.text());
  }

  /** The result row as an ordered map (JSON output). */
  public Map<String, Object> toMap() {
    return ResultValues.map(LoadResultField.View.RESULT, this::value);
  }

  /** The result row as a Spark row of {@code LoadResultField.schema(RESULT)} (SQL rows). */
  public Row toRow() {
    return ResultValues.row(LoadResultField.View.RESULT, this::value);
  }

  public static LoadResult of(
      String loadId,
      String tableId,
      LoadOutcome o,
      boolean waived,
      Instant started,
      Instant loadTs) {
    return builder(loadId, tableId, o.status())
        .counts(o.counts())
        .targetLiveRowsAfter(o.targetLiveRowsAfter())
        .deltaVersion(o.deltaVersion())
        .gatesWaived(waived)
        .durationMs(java.time.Duration.between(started, Instant.now()).toMillis())
        .message(o.message())
        .warnings(o.warnings())
        .startedAt(started)
        .loadTimestamp(loadTs)
        .expectations(o.expectations())
        .build();
  }

  /**
   * The row of a load recovered from its commit receipt (its history was never written): the counts
   * the receipt carries, by kind of change. A receipt written before receipts carried counts gives
   * only Delta's operation metrics: inserted, and every replaced row (updated, revived or
   * soft-deleted) as updated; live rows unknown (-1).
   */
  public static LoadResult recovered(
      String name, CommitReceipt receipt, long version, Map<String, String> m, Instant now) {
    ChangeCounts c =
        receipt
            .counts()
            .orElseGet(
                () ->
                    ChangeCounts.builder()
                        .inserted(metric(m, "numTargetRowsInserted"))
                        .updated(metric(m, "numTargetRowsUpdated"))
                        .liveBefore(-1)
                        .build());
    boolean live = receipt.counts().isPresent();
    // Without a receipt's counts the live rows are unknown: -1 before (in c) and after.
    return builder(receipt.loadId(), name, LoadStatus.RECOVERED)
        .counts(c)
        .targetLiveRowsAfter(live ? c.liveAfter() : -1)
        .deltaVersion(version)
        .message(
            "load "
                + receipt.loadId()
                + " committed Delta version "
                + version
                + " but its history was not written (the process stopped); recorded from the"
                + " commit receipt, not applied again")
        .startedAt(now)
        .loadTimestamp(receipt.loadTimestamp())
        .expectations(receipt.expectations())
        .build();
  }

  private static long metric(Map<String, String> metrics, String name) {
    try {
      return Long.parseLong(metrics.getOrDefault(name, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  public static LoadResult without(
      String loadId,
      String tableId,
      LoadStatus status,
      long version,
      String message,
      Instant started,
      Instant loadTs) {
    return builder(loadId, tableId, status)
        .deltaVersion(version)
        .durationMs(java.time.Duration.between(started, Instant.now()).toMillis())
        .message(message)
        .startedAt(started)
        .loadTimestamp(loadTs)
        .build();
  }

  /** Builds a {@link LoadResult} by name; the live rows after follow from the counts unless set. */
  public static final class Builder {
    private final String loadId;
    private final String tableId;
    private final LoadStatus status;
    private ChangeCounts counts = ChangeCounts.none(0);
    private Long targetLiveRowsAfter;
    private long deltaVersion = -1;
    private boolean gatesWaived;
    private long durationMs;
    private String message;
    private List<String> warnings = List.of();
    private Instant startedAt;
    private Instant loadTimestamp;
    private List<ExpectationCount> expectations = List.of();

    private Builder(String loadId, String tableId, LoadStatus status) {
      this.loadId = loadId;
      this.tableId = tableId;
      this.status = status;
    }

    public Builder counts(ChangeCounts counts) {
      this.counts = counts;
      return this;
    }

    public Builder targetLiveRowsAfter(long rows) {
      this.targetLiveRowsAfter = rows;
      return this;
    }

    public Builder deltaVersion(long version) {
      this.deltaVersion = version;
      return this;
    }

    public Builder gatesWaived(boolean waived) {
      this.gatesWaived = waived;
      return this;
    }

    public Builder durationMs(long ms) {
      this.durationMs = ms;
      return this;
    }

    public Builder message(String message) {
      this.message = message;
      return this;
    }

    public Builder warnings(List<String> warnings) {
      this.warnings = warnings;
      return this;
    }

    public Builder startedAt(Instant startedAt) {
      this.startedAt = startedAt;
      return this;
    }

    public Builder loadTimestamp(Instant loadTimestamp) {
      this.loadTimestamp = loadTimestamp;
      return this;
    }

    public Builder expectations(List<ExpectationCount> counted) {
      this.expectations = counted;
      return this;
    }

    public LoadResult build() {
      return new LoadResult(
          loadId,
          tableId,
          status,
          counts,
          targetLiveRowsAfter == null ? counts.liveAfter() : targetLiveRowsAfter,
          deltaVersion,
          gatesWaived,
          durationMs,
          message,
          warnings,
          startedAt,
          loadTimestamp,
          expectations);
    }
  }
}
