package io.weaver.sql.commands;

import io.weaver.sql.plans.TableIdentity;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import scala.collection.immutable.Seq;

/**
 * Runs {@code LOAD WEAVER TABLE id [IN RUN 'run'] [WAIVE STABILITY GATES]}: the load's result row
 * (docs/table-contract.md, "Load"), preceded by a {@code recovered} row when an earlier load's
 * history had to be recovered. A failed, refused or skipped load is a row with that status; an
 * unknown Table is an {@code AnalysisException}. A Python Table is {@code skipped} with a message
 * saying how to load it. {@code IN RUN} loads it as a step of a load run the session opened ({@link
 * ShowWeaverLoadPlanCommand}): {@code skipped} when a dependency of the run stopped, and its item's
 * publish waits for {@code PUBLISH WEAVER RUN}.
 */
public final class LoadWeaverTableCommand extends WeaverStatement {
  private final TableIdentity table;
  private final boolean waiveStabilityGates;
  private final Optional<String> run;

  /** A load of its own, in no run. */
  public LoadWeaverTableCommand(TableIdentity table, boolean waiveStabilityGates) {
    this(table, waiveStabilityGates, Optional.empty());
  }

  public LoadWeaverTableCommand(
      TableIdentity table, boolean waiveStabilityGates, Optional<String> run) {
    this(table, waiveStabilityGates, run, attributes(LoadRows.SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public LoadWeaverTableCommand(
      TableIdentity table,
      boolean waiveStabilityGates,
      Optional<String> run,
      Seq<Attribute> output) {
    super(output);
    this.table = Objects.requireNonNull(table, "table");
    this.waiveStabilityGates = waiveStabilityGates;
    this.run = Objects.requireNonNull(run, "run");
  }

  /** The Table to load. */
  public TableIdentity table() {
    return table;
  }

  /** Whether the stability gates are waived. */
  public boolean waiveStabilityGates() {
    return waiveStabilityGates;
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "LOAD WEAVER TABLE " + table;
    var weaver = WorkspaceAccess.open(session, statement);
    if (run.isPresent()) {
      return LoadRows.rows(
          WorkspaceAccess.call(
              statement,
              () ->
                  weaver.loadInRun(
                      LoadRuns.get(session, weaver.root(), run.get()),
                      WorkspaceAccess.scope(table),
                      waiveStabilityGates)));
    }
    return LoadRows.rows(
        WorkspaceAccess.call(
            statement, () -> weaver.load(WorkspaceAccess.scope(table), waiveStabilityGates)));
  }

  @Override
  public List<Object> arguments() {
    return List.of(table, waiveStabilityGates, run);
  }
}
