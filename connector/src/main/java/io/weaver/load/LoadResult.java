package io.weaver.load;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result row of one load (docs/table-contract.md, "Load"), with the names of {@code
 * _.LoadHistory}.
 *
 * @param tableId item-qualified, {@code Item.Schema.Object}
 * @param deltaVersion the watermark: a read at this version or later observes the load
 */
public record LoadResult(
    String loadId,
    String tableId,
    LoadStatus status,
    long rowsInserted,
    long rowsUpdated,
    long rowsDeleted,
    long rowsRevived,
    long rowsUnchanged,
    long rowsRejected,
    long targetLiveRowsBefore,
    long targetLiveRowsAfter,
    long deltaVersion,
    boolean gatesWaived,
    long durationMs,
    String message,
    List<String> warnings,
    Instant startedAt,
    Instant loadTimestamp) {

  public LoadResult {
    warnings = List.copyOf(warnings);
  }

  /** A failed, refused or skipped load stops its dependants. */
  public boolean stopsDependants() {
    return status.stopsDependants();
  }

  /** A load the command line reports as a failure (exit code 1). */
  public boolean isFailure() {
    return status.isFailure();
  }

  /** The result row as an ordered map (JSON output, SQL rows). */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("load_id", loadId);
    m.put("table_id", tableId);
    m.put("status", status.text());
    m.put("rows_inserted", rowsInserted);
    m.put("rows_updated", rowsUpdated);
    m.put("rows_deleted", rowsDeleted);
    m.put("rows_revived", rowsRevived);
    m.put("rows_unchanged", rowsUnchanged);
    m.put("rows_rejected", rowsRejected);
    m.put("target_live_rows_before", targetLiveRowsBefore);
    m.put("target_live_rows_after", targetLiveRowsAfter);
    m.put("delta_version", deltaVersion);
    m.put("gates_waived", gatesWaived);
    m.put("duration_ms", durationMs);
    m.put("message", message);
    m.put("warnings", warnings);
    return m;
  }

  static LoadResult of(
      String loadId,
      String tableId,
      LoadOutcome o,
      boolean waived,
      Instant started,
      Instant loadTs) {
    return new LoadResult(
        loadId,
        tableId,
        o.status(),
        o.rowsInserted(),
        o.rowsUpdated(),
        o.rowsDeleted(),
        o.rowsRevived(),
        o.rowsUnchanged(),
        o.rowsRejected(),
        o.targetLiveRowsBefore(),
        o.targetLiveRowsAfter(),
        o.deltaVersion(),
        waived,
        java.time.Duration.between(started, Instant.now()).toMillis(),
        o.message(),
        o.warnings(),
        started,
        loadTs);
  }

  /**
   * The row of a load recovered from its commit receipt (its history was never written): the counts
   * the receipt carries, by kind of change. A receipt written before receipts carried counts gives
   * only Delta's operation metrics: inserted, and every replaced row (updated, revived or
   * soft-deleted) as updated; live rows unknown (-1).
   */
  static LoadResult recovered(String name, LoadRecovery.Unrecorded u, Instant now) {
    Map<String, String> m = u.metrics();
    ChangeCounts c =
        u.receipt()
            .counts()
            .orElseGet(
                () ->
                    new ChangeCounts(
                        metric(m, "numTargetRowsInserted"),
                        metric(m, "numTargetRowsUpdated"),
                        0,
                        0,
                        0,
                        0,
                        -1));
    boolean live = u.receipt().counts().isPresent();
    return new LoadResult(
        u.receipt().loadId(),
        name,
        LoadStatus.RECOVERED,
        c.inserted(),
        c.updated(),
        c.deleted(),
        c.revived(),
        c.unchanged(),
        c.rejected(),
        live ? c.liveBefore() : -1,
        live ? c.liveAfter() : -1,
        u.version(),
        false,
        0,
        "load "
            + u.receipt().loadId()
            + " committed Delta version "
            + u.version()
            + " but its history was not written (the process stopped); recorded from the commit"
            + " receipt, not applied again",
        List.of(),
        now,
        u.receipt().loadTimestamp());
  }

  private static long metric(Map<String, String> metrics, String name) {
    try {
      return Long.parseLong(metrics.getOrDefault(name, "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  static LoadResult without(
      String loadId,
      String tableId,
      LoadStatus status,
      long version,
      String message,
      Instant started,
      Instant loadTs) {
    return new LoadResult(
        loadId,
        tableId,
        status,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        version,
        false,
        java.time.Duration.between(started, Instant.now()).toMillis(),
        message,
        List.of(),
        started,
        loadTs);
  }
}
