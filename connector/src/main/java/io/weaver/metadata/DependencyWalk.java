package io.weaver.metadata;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One walk over the selected Tables in dependency order ({@link DependencyPlan}), for every run
 * that goes Table by Table (Build, Load, the plan of either): each Table's step ends with a result
 * ({@link #ended}), and a Table one of whose dependencies ended with a result that {@code stops}
 * its dependants is not run ({@link #stoppedBy}) — Load's rule that a failed, refused or skipped
 * Table skips its dependants, not unrelated Tables. Not safe for threads by itself: a run that
 * steps Tables side by side guards it ({@code LoadRun}).
 *
 * @param <R> what a Table's step ends with (a load's result, a load's plan, ...)
 */
public final class DependencyWalk<R> {
  private final DependencyPlan plan;
  private final List<TableDeclaration> tables;
  private final Predicate<R> stops;
  private final Map<String, R> ended = new HashMap<>();
  private final Map<String, TableDeclaration> byName = new HashMap<>();

  private DependencyWalk(
      DependencyPlan plan, Predicate<TableDeclaration> selected, Predicate<R> stops) {
    this.plan = plan;
    this.tables = plan.order().stream().filter(selected).toList();
    this.stops = stops;
    tables.forEach(t -> byName.put(t.qualifiedName(), t));
  }

  /**
   * The Tables {@code selected} accepts, dependencies first; a result {@code stops} accepts stops
   * the Tables that depend on it.
   */
  public static <R> DependencyWalk<R> of(
      WorkspaceModel model, Predicate<TableDeclaration> selected, Predicate<R> stops) {
    return new DependencyWalk<>(DependencyPlan.resolve(model), selected, stops);
  }

  /** A walk in which no result stops another Table (Build). */
  public static <R> DependencyWalk<R> of(
      WorkspaceModel model, Predicate<TableDeclaration> selected) {
    return of(model, selected, r -> false);
  }

  /** The graph walked: each Table's edges and sources. */
  public DependencyPlan plan() {
    return plan;
  }

  /** The selected Tables, dependencies first. */
  public List<TableDeclaration> tables() {
    return tables;
  }

  /** Records how {@code table}'s step ended (its last result), for its dependants. */
  public void ended(TableDeclaration table, R result) {
    ended.put(table.qualifiedName(), result);
  }

  /**
   * The first dependency of {@code table} (in edge order) whose step in this walk ended with a
   * result that stops its dependants; empty: {@code table} runs.
   */
  public Optional<Stopped<R>> stoppedBy(TableDeclaration table) {
    return dependencyIds(table).stream()
        .filter(id -> ended.containsKey(id) && stops.test(ended.get(id)))
        .findFirst()
        .map(id -> new Stopped<>(id, ended.get(id)));
  }

  /** The results of {@code table}'s dependencies that ended earlier in this walk, in edge order. */
  public List<R> dependencyResults(TableDeclaration table) {
    return dependencyIds(table).stream()
        .map(ended::get)
        .filter(Objects::nonNull)
        .distinct()
        .toList();
  }

  /**
   * The selected Tables {@code table} depends on directly (a walk that runs Tables side by side
   * starts {@code table} once these have ended), in edge order.
   */
  public List<TableDeclaration> selectedDependencies(TableDeclaration table) {
    return dependencyIds(table).stream()
        .distinct()
        .map(byName::get)
        .filter(Objects::nonNull)
        .toList();
  }

  /** The workspace Tables {@code table} depends on, item-qualified, in edge order. */
  private List<String> dependencyIds(TableDeclaration table) {
    return plan.edgesOf(table).stream()
        .filter(e -> e.dependsOnItem() != null)
        .map(e -> e.dependsOnItem() + "." + e.dependsOnTableId())
        .toList();
  }

  /**
   * A dependency that stopped.
   *
   * @param tableId the dependency, item-qualified
   * @param result how its step ended
   */
  public record Stopped<R>(String tableId, R result) {}
}
