package io.weaver.sql.analysis;

import io.weaver.sql.commands.BuildWeaverCommand;
import io.weaver.sql.commands.CheckWeaverCommand;
import io.weaver.sql.commands.DescribeWeaverLoadCommand;
import io.weaver.sql.commands.DescribeWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverItemCommand;
import io.weaver.sql.commands.LoadWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverTableFromCommand;
import io.weaver.sql.commands.NotAvailableCommand;
import io.weaver.sql.commands.PlanWeaverCommand;
import io.weaver.sql.commands.RestoreWeaverTableCommand;
import io.weaver.sql.commands.ShowWeaverLoadPlanCommand;
import io.weaver.sql.commands.ShowWeaverLoadsCommand;
import io.weaver.sql.commands.ShowWeaverTablesCommand;
import io.weaver.sql.commands.TestWeaverCommand;
import io.weaver.sql.plans.BuildWeaverStatement;
import io.weaver.sql.plans.CheckWeaverStatement;
import io.weaver.sql.plans.DescribeWeaverLoad;
import io.weaver.sql.plans.DescribeWeaverTable;
import io.weaver.sql.plans.LoadWeaverItem;
import io.weaver.sql.plans.LoadWeaverTable;
import io.weaver.sql.plans.LoadWeaverTableFrom;
import io.weaver.sql.plans.PlanWeaverStatement;
import io.weaver.sql.plans.RestoreWeaverTable;
import io.weaver.sql.plans.ShowWeaverLoadPlan;
import io.weaver.sql.plans.ShowWeaverLoads;
import io.weaver.sql.plans.ShowWeaverTables;
import io.weaver.sql.plans.TestWeaverStatement;
import io.weaver.sql.plans.WeaverStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import scala.Function1;
import scala.runtime.AbstractPartialFunction;

/** Replaces each parsed Weaver statement with the command that runs it. */
public final class ResolveWeaverStatements extends Rule<LogicalPlan> {

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    return plan.resolveOperators(new ToCommand());
  }

  static LogicalPlan toCommand(WeaverStatement statement) {
    if (statement instanceof CheckWeaverStatement check) {
      return new CheckWeaverCommand(check.workspace());
    } else if (statement instanceof BuildWeaverStatement build) {
      return new BuildWeaverCommand(build.scope(), build.allowDestructive());
    } else if (statement instanceof PlanWeaverStatement plan) {
      return new PlanWeaverCommand(plan.scope(), plan.allowDestructive(), plan.waiveGates());
    } else if (statement instanceof LoadWeaverTable load) {
      return new LoadWeaverTableCommand(load.table(), load.waiveStabilityGates());
    } else if (statement instanceof LoadWeaverTableFrom load) {
      return new LoadWeaverTableFromCommand(
          load.table(),
          load.stagingView(),
          load.deleteKeysView(),
          load.failure(),
          load.bookmark(),
          load.context(),
          load.waiveStabilityGates());
    } else if (statement instanceof DescribeWeaverLoad describe) {
      return new DescribeWeaverLoadCommand(describe.table());
    } else if (statement instanceof ShowWeaverLoadPlan plan) {
      return new ShowWeaverLoadPlanCommand(plan.scope());
    } else if (statement instanceof LoadWeaverItem load) {
      return new LoadWeaverItemCommand(load.item(), load.waiveStabilityGates());
    } else if (statement instanceof ShowWeaverTables show) {
      return new ShowWeaverTablesCommand(show.item());
    } else if (statement instanceof DescribeWeaverTable describe) {
      return new DescribeWeaverTableCommand(describe.table());
    } else if (statement instanceof ShowWeaverLoads show) {
      return new ShowWeaverLoadsCommand(show.table(), show.limit());
    } else if (statement instanceof RestoreWeaverTable restore) {
      return new RestoreWeaverTableCommand(restore.table(), restore.loadId());
    } else if (statement instanceof TestWeaverStatement test) {
      return new TestWeaverCommand(test.scope());
    }
    return NotAvailableCommand.of(statement.keywords(), statement);
  }

  /** The rule body as the partial function {@code resolveOperators} takes. */
  private static final class ToCommand extends AbstractPartialFunction<LogicalPlan, LogicalPlan> {
    @Override
    public boolean isDefinedAt(LogicalPlan plan) {
      return plan instanceof WeaverStatement;
    }

    @Override
    public <A1 extends LogicalPlan, B1> B1 applyOrElse(A1 plan, Function1<A1, B1> orElse) {
      if (plan instanceof WeaverStatement statement) {
        @SuppressWarnings("unchecked")
        B1 command = (B1) toCommand(statement);
        return command;
      }
      return orElse.apply(plan);
    }
  }
}
