package io.weaver.catalyst.rules;

import io.weaver.catalyst.compat.ScalaSeqs;
import io.weaver.catalyst.delta.DeltaRelations;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.RelationTimeTravel;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;

/**
 * Marks every read by Weaver name before Spark resolves any name (a hint-resolution rule: Spark
 * runs these before its Resolution batch, whatever the order of {@code spark.sql.extensions}), so
 * {@link ShowLiveRows} can tell a read by name from a read by path once both have become the same
 * Delta relation.
 *
 * <p>A read by Weaver name is an unresolved relation — {@code FROM}, {@code JOIN}, {@code
 * spark.table}, {@code spark.read.table}, with or without {@code VERSION AS OF} — whose name is
 * {@code <Item>.<Schema>.<Object>} of an item catalog, or a shorter name while an item catalog is
 * the current catalog ({@code USE Logistics}). It gets a {@link NameRead} mark carrying the read's
 * options. Write targets ({@code INSERT}, DataFrame appends) are not children of their commands and
 * are never reached; DML targets (DELETE, UPDATE, MERGE) are not reads: they lose any live-rows
 * mark they hold (the {@code DeltaTable} API builds DELETE and UPDATE over its own analysed
 * DataFrame), here, before Delta's analysis rule sees them. RESTORE and CLONE are left whole. The
 * engine's own sessions are left alone.
 */
public final class MarkNameReads extends Rule<LogicalPlan> {
  private final SparkSession session;
  private final TableContract contract;
  private final EngineScope scope;
  private final LiveMarks marks;

  public MarkNameReads(SparkSession session, TableContract contract, EngineScope scope) {
    this.session = Objects.requireNonNull(session, "session");
    this.contract = Objects.requireNonNull(contract, "contract");
    this.scope = Objects.requireNonNull(scope, "scope");
    this.marks = new LiveMarks(contract);
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (scope.isEngineSession(session)) {
      return plan;
    }
    return mark(plan);
  }

  private LogicalPlan mark(LogicalPlan plan) {
    if (NameRead.markedBy(plan).isPresent() || DeltaRelations.copiesWholeTable(plan)) {
      return plan;
    }
    if (plan instanceof UnresolvedRelation u) {
      return byWeaverName(u) ? NameRead.of(u.options(), contract).above(u) : plan;
    }
    if (plan instanceof RelationTimeTravel travel
        && travel.relation() instanceof UnresolvedRelation u) {
      return byWeaverName(u) ? NameRead.of(u.options(), contract).above(travel) : plan;
    }
    Optional<LogicalPlan> target = DeltaRelations.dmlTarget(plan);
    if (target.isEmpty() && plan.resolved()) {
      return plan; // nothing unresolved below: no name left to mark
    }
    // Subqueries in expressions (scalar, IN, EXISTS) are plans too: a parsed plan's reads by name
    // in them are marked here, as the hint batch marks them when it analyses each subquery.
    LogicalPlan withSubqueries = (LogicalPlan) plan.mapExpressions(this::markSubqueries);
    List<LogicalPlan> children = ScalaSeqs.toList(withSubqueries.children());
    List<LogicalPlan> marked = new ArrayList<>(children.size());
    boolean changed = withSubqueries != plan;
    for (LogicalPlan child : children) {
      LogicalPlan next =
          target.isPresent() && target.get() == child ? marks.strip(child) : mark(child);
      changed |= next != child;
      marked.add(next);
    }
    return changed ? withSubqueries.withNewChildren(ScalaSeqs.of(marked)) : plan;
  }

  private Expression markSubqueries(Expression expression) {
    if (expression.resolved()) {
      return expression;
    }
    if (expression instanceof SubqueryExpression subquery) {
      LogicalPlan inner = mark(subquery.plan());
      return inner == subquery.plan() ? expression : subquery.withNewPlan(inner);
    }
    List<Expression> children = ScalaSeqs.toList(expression.children());
    List<Expression> marked = new ArrayList<>(children.size());
    boolean changed = false;
    for (Expression child : children) {
      Expression next = markSubqueries(child);
      changed |= next != child;
      marked.add(next);
    }
    return changed ? expression.withNewChildren(ScalaSeqs.of(marked)) : expression;
  }

  private boolean byWeaverName(UnresolvedRelation relation) {
    if (relation.isStreaming()) {
      return false;
    }
    List<String> name = ScalaSeqs.toList(relation.multipartIdentifier());
    if (name.size() == 3) {
      return contract.isItemCatalog(session, name.get(0));
    }
    return name.size() < 3
        && contract.isItemCatalog(
            session, session.sessionState().catalogManager().currentCatalog().name());
  }
}
