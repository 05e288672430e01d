package io.weaver.load.records;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadStatus;
import io.weaver.load.spec.LoadTrace;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

/**
 * The last step of a load: its rejections into {@code _.LoadRejection}, its row into {@code
 * _.LoadHistory}, and — for a load that succeeded or found no work — the Table's {@code
 * _.LoadState}, in that order (a stop between them is what {@code LoadRecovery} repairs).
 */
public final class LoadRecorder {
  private final Catalogue catalogue;
  private final LoadBookkeeping books;
  private final String tableId;
  private final HistoryFaultPoints faults;
  private final Optional<QuietLoadRecords> quiet;

  public LoadRecorder(
      Catalogue catalogue,
      String tableId,
      HistoryFaultPoints faults,
      Optional<QuietLoadRecords> quiet) {
    this.catalogue = catalogue;
    this.books = new LoadBookkeeping(catalogue);
    this.tableId = tableId;
    this.faults = faults;
    this.quiet = quiet;
  }

  /**
   * The Table's state. When this load writes its state itself (not kept for the call's end), the
   * state table's file list for that write is computed ahead, beside the load.
   */
  public LoadBookkeeping.State state() {
    return books.state(tableId, quiet.map(q -> !q.keepsCommitted()).orElse(true));
  }

  public void state(LoadBookkeeping.State state) {
    books.state(tableId, state);
  }

  public void history(LoadResult result) {
    books.history(tableId, result, Instant.now());
  }

  /** The load's counts per expectation, replacing any it wrote before (none when it has none). */
  public void expectations(LoadResult result) {
    books.expectations(tableId, result);
  }

  /** Where this Table's quarantined rows go under {@code loadId}. */
  public QuarantineRecords quarantine(String loadId) {
    return new QuarantineRecords(catalogue, tableId, loadId);
  }

  /** The status and Delta version of earlier loads of this Table under {@code loadId}. */
  public List<Row> historyOf(String loadId) {
    return catalogue
        .readFor(CatalogueTable.LOAD_HISTORY, "table_id", tableId)
        .where(functions.col("load_id").equalTo(loadId))
        .select("status", "delta_version")
        .collectAsList();
  }

  /** Writes the load's rejected rows, if any (before its result is taken). */
  public void rejections(LoadOutcome outcome, String loadId) {
    outcome.rejections().ifPresent(r -> rejections(r, loadId));
  }

  /** Records a load the engine finished (whatever its status), after its rejections. */
  public void record(
      LoadOutcome outcome,
      boolean countsWritten,
      LoadResult result,
      LoadBookkeeping.State before,
      Optional<String> bookmark,
      long sequence,
      Instant loadTs) {
    if (outcome.status() != LoadStatus.SUCCEEDED && outcome.status() != LoadStatus.NO_WORK) {
      if (!countsWritten) {
        books.expectations(tableId, result);
      }
      history(result);
      return;
    }
    LoadBookkeeping.State after =
        new LoadBookkeeping.State(
            result.loadId(),
            Optional.of(loadTs),
            outcome.deltaVersion(),
            bookmark,
            outcome.committed() ? sequence : before.sequence());
    if (quiet.isPresent()
        && (!outcome.committed() || quiet.get().keepsCommitted())
        && outcome.counts().quarantined() == 0
        && !countsWritten) {
      // It succeeded without writing (no changes, or no work), or committed in a call of several
      // Tables: its records join those of the call's other loads (QuietLoadRecords says why
      // nothing is lost). A load that quarantined rows wrote them, so it records itself now (rows
      // without a history row are an unfinished load's, see QuarantineRecords).
      quiet.get().add(catalogue, tableId, result, after);
      return;
    }
    // Before the history row: a load with a history row has its expectation counts.
    if (!countsWritten) {
      books.expectations(tableId, result);
    }
    faults.duringHistory();
    history(result);
    LoadTrace.mark("history written");
    faults.afterHistory();
    state(after);
    LoadTrace.mark("state written");
  }

  private void rejections(Dataset<Row> rejections, String loadId) {
    rejections
        .select(
            functions.lit(loadId).alias("load_id"),
            functions.lit(tableId).alias("table_id"),
            functions.col("reason"),
            functions.col("key_json"),
            functions.col("row_json"))
        .write()
        .format("delta")
        .mode("append")
        .save(catalogue.path(CatalogueTable.LOAD_REJECTION));
  }

  /**
   * The report of a load whose Delta commit landed but whose history or state could not be written:
   * the load with a warning (a "failed" row would lie); the next load records it as recovered.
   */
  public static LoadResult bookkeepingFailed(
      String loadId,
      String name,
      LoadOutcome committed,
      Exception e,
      boolean waiveGates,
      Instant started,
      Instant loadTs) {
    String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    LoadOutcome o =
        committed.withWarning(
            name
                + ": load "
                + loadId
                + " committed Delta version "
                + committed.deltaVersion()
                + " but its history or state could not be written ("
                + LoadFailure.firstLine(reason)
                + "); the next load records it as recovered, nothing is applied twice");
    return LoadResult.of(loadId, name, o, waiveGates, started, loadTs);
  }
}
