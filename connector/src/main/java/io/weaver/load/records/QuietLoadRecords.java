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
 * The history and state rows of the loads of one {@code LoadRunner#load} call, kept until the call
 * ends and then written per item in a few commits (one append to {@code _.LoadExpectation}, one to
 * {@code _.LoadHistory}, one replace of their {@code _.LoadState} rows) instead of two or three per
 * Table (docs/performance.md, "The fixed cost of a call").
 *
 * <p>Always kept: the loads that found nothing to write. They committed nothing, so nothing else in
 * the call depends on their records (a Table reads only its own state, and a dependant sees the
 * same Delta version of an unchanged dependency whether or not its state row is written yet). A
 * process that stops before the call ends loses only these rows; the next load of such a Table then
 * finds an older last load and takes the full diff, with the same result.
 *
 * <p>Kept too when the call loads several Tables ({@link #keepsCommitted}): the loads that
 * committed. Each carries its receipt in its own Delta commit, so a process that stops before the
 * call ends loses no load: the next load of such a Table finds the receipt and records the load as
 * {@code recovered}, as it does after any stop between a commit and its history. A call that loads
 * one Table writes a committed load's records at once, as its statement reports them.
 *
 * <p>Loads that wrote quarantined rows or expectation counts record themselves at once (rows
 * without a history row are an unfinished load's, see {@code QuarantineRecords}). Safe to share
 * between the threads of a call that loads Tables side by side.
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
  private final boolean keepsCommitted;

  /**
   * @param keepsCommitted whether the records of loads that committed are kept too (a call that
   *     loads several Tables)
   */
  public QuietLoadRecords(boolean keepsCommitted) {
    this.keepsCommitted = keepsCommitted;
  }

  /** Whether the records of loads that committed wait for {@link #write} too. */
  public boolean keepsCommitted() {
    return keepsCommitted;
  }

  /** Keeps a load's history row and new state until {@link #write}. */
  synchronized void add(
      Catalogue catalogue, String tableId, LoadResult result, LoadBookkeeping.State state) {
    Pending pending =
        byCatalogue.computeIfAbsent(
            catalogue.path(CatalogueTable.LOAD_STATE), path -> new Pending(catalogue));
    pending.loads.add(new LoadBookkeeping.Finished(tableId, result, Instant.now()));
    pending.states.put(tableId, state);
  }

  public synchronized boolean isEmpty() {
    return byCatalogue.isEmpty();
  }

  /**
   * Writes what was kept, item by item; an item whose rows could not be written is named in the
   * returned messages (its loads still changed nothing), and the next item is still written.
   */
  public synchronized List<String> write() {
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
                + " load(s) in item "
                + pending.catalogue.item()
                + " could not be written ("
                + LoadFailure.firstLine(String.valueOf(e.getMessage()))
                + "); nothing is lost: the next load of each Table records a committed load as"
                + " recovered from its receipt, and takes the full diff after one that changed"
                + " nothing");
      }
    }
    byCatalogue.clear();
    return failures;
  }
}
