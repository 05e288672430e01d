package io.weaver.load;

import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadIds;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.DependencyWalk;
import io.weaver.metadata.TableDeclaration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One load of several Tables in dependency order, taken Table by Table: the walk over them, what
 * each Table's load reported, and the rule that a Table whose dependency failed, was refused or was
 * skipped is skipped ({@link DependencyWalk}, {@link LoadStatus#stopsDependants()}). {@link
 * LoadRunner#load} runs one in a single call; a client that must run some Tables itself (a Python
 * Table over Spark Connect) takes one Table per statement, and the run answers for the others. Safe
 * to share between threads: each step holds the run's lock only while it reads or records.
 */
public final class LoadRun {
  private final DependencyWalk<LoadResult> walk;
  private final Map<String, TableDeclaration> byName = new HashMap<>();
  private final boolean publishesItems;

  /** Each Table's rows as its load ended, before anything was said about its item's publish. */
  private final Map<String, List<LoadResult>> loaded = new LinkedHashMap<>();

  /** Each Table's rows as its statement reported them, with what waits for the item's publish. */
  private final Map<String, List<LoadResult>> reported = new LinkedHashMap<>();

  LoadRun(DependencyWalk<LoadResult> walk, boolean publishesItems) {
    this.walk = walk;
    this.publishesItems = publishesItems;
    walk.tables().forEach(t -> byName.put(t.qualifiedName(), t));
  }

  /** Whether the run's end publishes its items (a run of whole items, not of one Table). */
  boolean publishesItems() {
    return publishesItems;
  }

  /** The run's Tables, dependencies first. */
  public List<TableDeclaration> tables() {
    return walk.tables();
  }

  /**
   * The run's own declaration of the Table {@code qualifiedName} names.
   *
   * @throws IllegalArgumentException when the Table is not part of this run
   */
  public TableDeclaration table(String qualifiedName) {
    TableDeclaration t = byName.get(qualifiedName);
    if (t == null) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          qualifiedName
              + " is not one of this load run's Tables ("
              + String.join(", ", byName.keySet().stream().sorted().toList())
              + "); open a run that covers it with SHOW WEAVER LOAD PLAN … OPEN RUN");
    }
    return t;
  }

  /** The run's Tables that {@code table} waits for: those it depends on directly. */
  List<TableDeclaration> dependencies(TableDeclaration table) {
    return walk.selectedDependencies(table);
  }

  /** Whether {@code table} is not loaded in this run because one of its dependencies stopped. */
  public synchronized boolean stopped(TableDeclaration table) {
    return walk.stoppedBy(table(table.qualifiedName())).isPresent();
  }

  /** The result of {@code table} when a dependency stopped: it is skipped, saying which. */
  synchronized Optional<LoadResult> skipped(TableDeclaration table) {
    return walk.stoppedBy(table(table.qualifiedName()))
        .map(
            stop -> {
              Instant now = Instant.now();
              return LoadResult.without(
                  LoadIds.newLoadId(now),
                  table.qualifiedName(),
                  LoadStatus.SKIPPED,
                  -1,
                  "not loaded: dependency " + stop.tableId() + " was " + stop.result().status(),
                  now,
                  null);
            });
  }

  /** Records how {@code table}'s load ended (its rows, the last being its result). */
  synchronized void ended(TableDeclaration table, List<LoadResult> these) {
    ended(table, these, these);
  }

  /**
   * Records how {@code table}'s load ended: {@code loaded}, its rows (the last being its result),
   * and {@code reported}, the same rows with what its statement said about the item's publish.
   */
  synchronized void ended(
      TableDeclaration table, List<LoadResult> loaded, List<LoadResult> reported) {
    TableDeclaration own = table(table.qualifiedName());
    this.loaded.put(own.qualifiedName(), List.copyOf(loaded));
    this.reported.put(own.qualifiedName(), List.copyOf(reported));
    walk.ended(own, loaded.get(loaded.size() - 1));
  }

  /** The Tables that reported, in run order. */
  synchronized List<TableDeclaration> reportedTables() {
    return walk.tables().stream().filter(t -> reported.containsKey(t.qualifiedName())).toList();
  }

  /** Every row the run's loads ended with, in run order. */
  synchronized List<LoadResult> results() {
    return rows(item -> false);
  }

  /**
   * Every row, in run order: as loaded for the Tables of items {@code published} accepts, as their
   * statements reported them for the others.
   */
  synchronized List<LoadResult> rows(Predicate<String> published) {
    List<LoadResult> out = new ArrayList<>();
    for (TableDeclaration t : walk.tables()) {
      Map<String, List<LoadResult>> rows = published.test(t.item()) ? loaded : reported;
      out.addAll(rows.getOrDefault(t.qualifiedName(), List.of()));
    }
    return out;
  }
}
