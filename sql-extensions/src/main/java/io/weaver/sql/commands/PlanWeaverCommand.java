package io.weaver.sql.commands;

import io.weaver.plan.TablePlan;
import io.weaver.sql.plans.Scope;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code PLAN WEAVER [ITEM i | TABLE id] [ALLOW DESTRUCTIVE] [WAIVE STABILITY GATES]}: one row
 * per Table in load order with Build's action and the load's predicted outcome (docs/plan.md).
 * Nothing is written; a Table that would be refused or fail is a row, not an error.
 */
public final class PlanWeaverCommand extends WeaverStatement {
  /** One row per Table: {@link TablePlan#SCHEMA}, whose load columns a load's result defines. */
  public static final StructType SCHEMA = TablePlan.SCHEMA;

  private final Scope scope;
  private final boolean allowDestructive;
  private final boolean waiveGates;

  public PlanWeaverCommand(Scope scope, boolean allowDestructive, boolean waiveGates) {
    this(scope, allowDestructive, waiveGates, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public PlanWeaverCommand(
      Scope scope, boolean allowDestructive, boolean waiveGates, Seq<Attribute> output) {
    super(output);
    this.scope = Objects.requireNonNull(scope, "scope");
    this.allowDestructive = allowDestructive;
    this.waiveGates = waiveGates;
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "PLAN WEAVER";
    var weaver = WorkspaceAccess.open(session, statement);
    List<TablePlan> plans =
        WorkspaceAccess.call(
            statement,
            () -> weaver.plan(WorkspaceAccess.scope(scope), allowDestructive, waiveGates));
    return plans.stream().map(TablePlan::toRow).toList();
  }

  @Override
  public List<Object> arguments() {
    return List.of(scope, allowDestructive, waiveGates);
  }
}
