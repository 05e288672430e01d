package io.weaver.plan;

import io.weaver.install.BuildOutcome;
import io.weaver.install.BuildRunner;
import io.weaver.load.LoadPlan;
import io.weaver.load.LoadRunner;
import io.weaver.metadata.TableDeclaration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Plans a run (docs/plan.md): Build's classification with writing off, then each Table's load run
 * to its gates and stopped, in dependency order. A Table Build would create, alter or replace is
 * not load-planned against its current shape: its plan says the load is planned after Build.
 */
public final class WorkspacePlanner {
  private final BuildRunner build;
  private final LoadRunner load;

  public WorkspacePlanner(BuildRunner build, LoadRunner load) {
    this.build = build;
    this.load = load;
  }

  /** The plan of every selected Table, in load order. */
  public List<TablePlan> plan(
      Predicate<TableDeclaration> selected, boolean allowDestructive, boolean waiveGates) {
    Map<String, BuildOutcome> built = new HashMap<>();
    for (BuildOutcome o : build.plan(selected, allowDestructive)) {
      built.put(o.tableId(), o);
    }
    List<LoadPlan> loads = load.plan(selected, waiveGates, t -> afterBuild(built.get(t)));
    return loads.stream()
        .map(
            l ->
                new TablePlan(
                    l.tableId(),
                    built.getOrDefault(
                        l.tableId(), new BuildOutcome(l.tableId(), "skipped", "not planned")),
                    l))
        .toList();
  }

  /** Why a Table's load cannot be planned before Build has run, if it cannot. */
  private static Optional<String> afterBuild(BuildOutcome o) {
    if (o == null) {
      return Optional.empty();
    }
    return switch (o.action()) {
      case "created" ->
          Optional.of(
              "not planned: Build would create the table; its first load inserts every valid row"
                  + " the body returns");
      case "altered", "replaced" ->
          Optional.of(
              "not planned: Build would "
                  + (o.action().equals("altered") ? "alter" : "replace")
                  + " the table first; run build, then plan the load");
      default -> Optional.empty();
    };
  }
}
