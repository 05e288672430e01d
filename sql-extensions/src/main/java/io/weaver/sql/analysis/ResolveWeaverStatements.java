package io.weaver.sql.analysis;

import io.weaver.sql.commands.CheckWeaverCommand;
import io.weaver.sql.commands.NotAvailableCommand;
import io.weaver.sql.plans.CheckWeaverStatement;
import io.weaver.sql.plans.WeaverStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import scala.Function1;
import scala.runtime.AbstractPartialFunction;

/**
 * Replaces each parsed Weaver statement with the command that runs it. CHECK WEAVER runs; the other
 * statements become a command that explains they are not available in this build yet.
 */
public final class ResolveWeaverStatements extends Rule<LogicalPlan> {

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    return plan.resolveOperators(new ToCommand());
  }

  static LogicalPlan toCommand(WeaverStatement statement) {
    if (statement instanceof CheckWeaverStatement check) {
      return new CheckWeaverCommand(check.workspace());
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
