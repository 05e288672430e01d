package io.weaver.load.records;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.spec.LoadFailure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The history and state rows of the loads of one {@code LoadRunner#load} call that found nothing to
 * write, kept until the call ends and then written per item in two commits (one append to {@code
 * _.LoadHistory}, one replace of their {@code _.LoadState} rows) instead of two per Table
 * (docs/performance.md, "The fixed cost of a call").
 *
 * <p>Only such loads are kept back: they committed nothing, so nothing else in the call depends on
 * their records (a Table reads only its own state, and a dependant sees the same Delta version of
 * an unchanged dependency whether or not its state row is written yet). A process that stops before
 * the call ends loses only these rows; the next load of such a Table then finds an older last load
 * and takes the full diff, with the same result.
 */
public final class QuietLoadRecords {
  /** What one item's quiet loads left to write. */
  private static final class Pending {
    final Catalogue catalogue;
    final List<LoadBookkeeping.Finished> loads = new ArrayList<>();
    final Map<String, LoadBookkeeping.State> states = new LinkedHashMap<>();

    Pending(Catalogue catalogue) {
      this.catalogue = catalogue;
    }
  }

  private final Map<String, Pending> byCatalogue = new LinkedHashMap<>();

  /** Keeps a quiet load's history row and new state until {@link #write}. */
  void add(Catalogue catalogue, String tableId, LoadResult result, LoadBookkeeping.State state) {
    Pending pending =
        byCatalogue.computeIfAbsent(
            catalogue.path(CatalogueTable.LOAD_STATE), path -> new Pending(catalogue));
    pending.loads.add(new LoadBookkeeping.Finished(tableId, result, Instant.now()));
    pending.states.put(tableId, state);
  }

  public boolean isEmpty() {
    return byCatalogue.isEmpty();
  }

  /**
   * Writes what was kept, item by item; an item whose rows could not be written is named in the
   * returned messages (its loads still changed nothing), and the next item is still written.
   */
  public List<String> write() {
    List<String> failures = new ArrayList<>();
    for (Pending pending : byCatalogue.values()) {
      try {
        LoadBookkeeping books = new LoadBookkeeping(pending.catalogue);
        books.expectations(pending.loads);
        books.histories(pending.loads);
        books.states(pending.states);
      } catch (RuntimeException e) {
        failures.add(
            "the history and state of "
                + pending.states.size()
                + " load(s) that changed nothing in item "
                + pending.catalogue.item()
                + " could not be written ("
                + LoadFailure.firstLine(String.valueOf(e.getMessage()))
                + "); their next loads take the full diff");
      }
    }
    byCatalogue.clear();
    return failures;
  }
}
