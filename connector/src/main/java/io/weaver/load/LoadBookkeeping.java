package io.weaver.load;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/** Reads and writes a Table's load state and history in its item's catalogue. */
final class LoadBookkeeping {

  /** {@code _.LoadState} of one Table (defaults when it never loaded). */
  record State(
      String lastLoadId,
      Optional<Instant> lastSucceededAt,
      long lastDeltaVersion,
      Optional<String> bookmark,
      long sequence) {
    static final State NEW = new State(null, Optional.empty(), -1, Optional.empty(), 0);
  }

  private final Catalogue catalogue;

  LoadBookkeeping(Catalogue catalogue) {
    this.catalogue = catalogue;
  }

  State state(String tableId) {
    List<Row> rows =
        catalogue.readFor(CatalogueTable.LOAD_STATE, "table_id", tableId).collectAsList();
    if (rows.isEmpty()) {
      return State.NEW;
    }
    Row r = rows.get(0);
    return new State(
        r.getString(1),
        r.isNullAt(2) ? Optional.empty() : Optional.of(r.getTimestamp(2).toInstant()),
        r.isNullAt(3) ? -1 : r.getLong(3),
        Optional.ofNullable(r.getString(4)),
        r.getLong(5));
  }

  void history(String tableId, LoadResult result, Instant finished) {
    catalogue.append(
        CatalogueTable.LOAD_HISTORY,
        List.of(
            RowFactory.create(
                result.loadId(),
                tableId,
                result.status(),
                ts(result.startedAt()),
                ts(finished),
                ts(result.loadTimestamp()),
                result.rowsInserted(),
                result.rowsUpdated(),
                result.rowsDeleted(),
                result.rowsRevived(),
                result.rowsUnchanged(),
                result.rowsRejected(),
                result.targetLiveRowsBefore(),
                result.targetLiveRowsAfter(),
                result.deltaVersion(),
                result.gatesWaived(),
                result.message())));
  }

  /**
   * Upserts the Table's state row: one overwrite commit replacing this Table's row ({@code
   * replaceWhere}), cheaper than a MERGE for one row (fewer jobs, no join).
   */
  void state(String tableId, State state) {
    Row row =
        RowFactory.create(
            tableId,
            state.lastLoadId(),
            state.lastSucceededAt().map(LoadBookkeeping::ts).orElse(null),
            state.lastDeltaVersion(),
            state.bookmark().orElse(null),
            state.sequence());
    catalogue.replaceFor(CatalogueTable.LOAD_STATE, "table_id", List.of(tableId), List.of(row));
  }

  private static Timestamp ts(Instant instant) {
    return instant == null ? null : Timestamp.from(instant);
  }
}
