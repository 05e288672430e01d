package io.weaver.load.records;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalogue.LoadResultField;
import io.weaver.catalogue.NamedRow;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.session.Ahead;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.Row;

/**
 * Reads and writes a Table's load state and history in its item's catalogue.
 *
 * <p>{@code _.LoadState} is small (one row per Table) and read at the start of every load. Its rows
 * are kept in memory per catalogue path together with the Delta version (and table id) they were
 * read at; a load whose catalogue is still at that version reuses them instead of running Delta's
 * snapshot and scan jobs again. A state written by this process moves the kept rows to the new
 * version only when that commit is the only one since the rows were read; any other writer (another
 * process, Build, a restore) leaves a version the memory does not hold, and the next load reads the
 * table again. So the memory never answers for a version it did not see.
 */
public final class LoadBookkeeping {
  /** The whole {@code _.LoadState} of one item at one Delta version of that table. */
  private record Rows(String tableUuid, long version, Map<String, State> states) {}

  private static final Map<String, Rows> KNOWN = new ConcurrentHashMap<>();

  /** {@code _.LoadState} of one Table (defaults when it never loaded). */
  public record State(
      String lastLoadId,
      Optional<Instant> lastSucceededAt,
      long lastDeltaVersion,
      Optional<String> bookmark,
      long sequence) {
    static final State NEW = new State(null, Optional.empty(), -1, Optional.empty(), 0);

    /** The state held by a {@code _.LoadState} row, read by column name. */
    static State fromRow(Row row) {
      NamedRow r = NamedRow.of(row);
      return new State(
          r.string("last_load_id"),
          r.instant("last_succeeded_at"),
          r.longOr("last_delta_version", -1),
          r.optionalString("bookmark"),
          r.longOr("load_sequence", 0));
    }

    /** This state as the {@code _.LoadState} row of {@code tableId}. */
    Row toRow(String tableId) {
      return CatalogueTable.LOAD_STATE
          .row()
          .set("table_id", tableId)
          .set("last_load_id", lastLoadId)
          .set("last_succeeded_at", lastSucceededAt.map(LoadBookkeeping::ts).orElse(null))
          .set("last_delta_version", lastDeltaVersion)
          .set("bookmark", bookmark.orElse(null))
          .set("load_sequence", sequence)
          .build();
    }
  }

  private final Catalogue catalogue;

  /** The state table's file list being computed ahead of the state's overwrite, if it is. */
  private CompletableFuture<Void> warming = CompletableFuture.completedFuture(null);

  public LoadBookkeeping(Catalogue catalogue) {
    this.catalogue = catalogue;
  }

  public State state(String tableId) {
    return state(tableId, true);
  }

  /**
   * The Table's state; {@code warm}: its overwrite follows in this load, so the state table's file
   * list is computed ahead (off when the call writes every Table's state together at its end).
   */
  public State state(String tableId, boolean warm) {
    String path = catalogue.path(CatalogueTable.LOAD_STATE);
    Optional<DeltaLogProbe> latest = DeltaLogProbe.at(catalogue.spark(), path);
    if (latest.isEmpty()) {
      return State.NEW;
    }
    DeltaLogProbe probe = latest.get();
    Rows known = KNOWN.get(path);
    if (known == null
        || known.version() != probe.version()
        || !known.tableUuid().equals(probe.tableUuid())) {
      known = read(path, probe);
    } else if (warm) {
      // The state's overwrite at the end of the load needs this version's file list (a Spark job
      // over the state table's log): computed on a thread of its own, it overlaps staging and the
      // diff instead of adding to the load's start or end (a tiny load spent 1-3 s on it here).
      warming =
          Ahead.start(
              catalogue.spark(),
              "load state files",
              () -> {
                probe.computeState();
                return null;
              });
    }
    return known.states().getOrDefault(tableId, State.NEW);
  }

  /** Every Table's state, by Table ID (an item's publish names the load behind each version). */
  public Map<String, State> states() {
    String path = catalogue.path(CatalogueTable.LOAD_STATE);
    Optional<DeltaLogProbe> latest = DeltaLogProbe.at(catalogue.spark(), path);
    if (latest.isEmpty()) {
      return Map.of();
    }
    Rows known = KNOWN.get(path);
    if (known == null
        || known.version() != latest.get().version()
        || !known.tableUuid().equals(latest.get().tableUuid())) {
      known = read(path, latest.get());
    }
    return known.states();
  }

  private Rows read(String path, DeltaLogProbe probe) {
    Map<String, State> states = new HashMap<>();
    for (Row r : catalogue.readAt(CatalogueTable.LOAD_STATE, probe.version()).collectAsList()) {
      states.put(NamedRow.of(r).string("table_id"), State.fromRow(r));
    }
    Rows known = new Rows(probe.tableUuid(), probe.version(), Map.copyOf(states));
    KNOWN.put(path, known);
    return known;
  }

  public void history(String tableId, LoadResult result, Instant finished) {
    catalogue.append(CatalogueTable.LOAD_HISTORY, List.of(historyRow(tableId, result, finished)));
  }

  /**
   * A load's counts per expectation into {@code _.LoadExpectation} (one commit, if any), replacing
   * the rows of the same load: a recovery after a stop between this write and the history row
   * writes them once.
   */
  void expectations(String tableId, LoadResult result) {
    expectations(tableId, result.loadId(), result.expectations());
  }

  void expectations(String tableId, String loadId, List<ExpectationCount> counts) {
    if (counts.isEmpty()) {
      return;
    }
    catalogue.replaceLoadRows(
        CatalogueTable.LOAD_EXPECTATION, tableId, loadId, expectationRows(tableId, loadId, counts));
  }

  /** The counts per expectation of several loads (each its own load id), in one commit. */
  void expectations(List<Finished> loads) {
    catalogue.append(
        CatalogueTable.LOAD_EXPECTATION,
        loads.stream()
            .flatMap(
                f ->
                    expectationRows(f.tableId(), f.result().loadId(), f.result().expectations())
                        .stream())
            .toList());
  }

  private static List<Row> expectationRows(
      String tableId, String loadId, List<ExpectationCount> counts) {
    return counts.stream()
        .map(
            e ->
                CatalogueTable.LOAD_EXPECTATION
                    .row()
                    .set("load_id", loadId)
                    .set("table_id", tableId)
                    .set("expectation", e.expectation())
                    .set("action", e.action())
                    .set("rows_violating", e.rowsViolating())
                    .set("sample_keys", List.copyOf(e.sampleKeys()))
                    .build())
        .toList();
  }

  /** A load's history row to write: its Table, its result and when it finished. */
  record Finished(String tableId, LoadResult result, Instant at) {}

  /** The history rows of several loads, in one commit. */
  void histories(List<Finished> loads) {
    catalogue.append(
        CatalogueTable.LOAD_HISTORY,
        loads.stream().map(f -> historyRow(f.tableId(), f.result(), f.at())).toList());
  }

  /** The history row of {@code result}: the fields {@link LoadResultField} keeps in history. */
  public static Row historyRow(String tableId, LoadResult result, Instant finished) {
    CatalogueRowBuilder row = CatalogueTable.LOAD_HISTORY.row();
    for (LoadResultField f : LoadResultField.of(LoadResultField.View.HISTORY)) {
      Object value =
          switch (f) {
            // History names the Table without its item; the result, item-qualified.
            case TABLE_ID -> tableId;
            case FINISHED_AT -> finished;
            default -> result.value(f);
          };
      row.set(f.column(), ResultValues.rowValue(f.type(), value));
    }
    return row.build();
  }

  /**
   * Upserts the Table's state row: one overwrite commit replacing this Table's row ({@code
   * replaceWhere}), cheaper than a MERGE for one row (fewer jobs, no join).
   */
  public void state(String tableId, State state) {
    states(Map.of(tableId, state));
  }

  /** Upserts the state rows of several Tables (Table ID to state), in one commit. */
  public void states(Map<String, State> states) {
    if (states.isEmpty()) {
      return;
    }
    List<String> ids = List.copyOf(states.keySet());
    List<Row> rows = ids.stream().map(id -> states.get(id).toRow(id)).toList();
    String path = catalogue.path(CatalogueTable.LOAD_STATE);
    // Whether it finished or failed, the overwrite reads the snapshot it needs itself.
    warming.exceptionally(e -> null).join();
    Rows before = KNOWN.remove(path);
    catalogue.replaceFor(CatalogueTable.LOAD_STATE, "table_id", ids, rows);
    Optional<DeltaLogProbe> after = DeltaLogProbe.at(catalogue.spark(), path);
    // Only this commit since the known rows: they are the new version's rows with these
    // replaced.
    if (before != null
        && after.isPresent()
        && after.get().version() == before.version() + 1
        && after.get().tableUuid().equals(before.tableUuid())) {
      Map<String, State> known = new HashMap<>(before.states());
      states.forEach((id, s) -> known.put(id, normalised(s)));
      KNOWN.put(path, new Rows(before.tableUuid(), after.get().version(), Map.copyOf(known)));
    }
  }

  /** The state as a read returns it: timestamps hold microseconds. */
  private static State normalised(State s) {
    return new State(
        s.lastLoadId(),
        s.lastSucceededAt().map(i -> i.truncatedTo(java.time.temporal.ChronoUnit.MICROS)),
        s.lastDeltaVersion(),
        s.bookmark(),
        s.sequence());
  }

  private static Timestamp ts(Instant instant) {
    return instant == null ? null : Timestamp.from(instant);
  }
}
