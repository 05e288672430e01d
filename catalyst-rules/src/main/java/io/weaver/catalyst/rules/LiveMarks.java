package io.weaver.catalyst.rules;

import io.weaver.catalyst.compat.ScalaSeqs;
import io.weaver.catalyst.delta.DeltaRelations;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataTypes;

/**
 * The marks a decided read of a Weaver table carries right above its Delta relation: the live
 * filter ({@code row_delete_datetime = 9999-12-31 00:00:00 UTC}) or, for a read of every row, the
 * always-true {@code 'weaver.allRows' = 'weaver.allRows'} (the optimizer removes it). Recognised by
 * their exact shape, so a read is never decided twice, and taken out of DML targets, which Delta
 * needs bare.
 */
final class LiveMarks {
  /** The live sentinel 9999-12-31 00:00:00 UTC in microseconds since the epoch. */
  static final long LIVE_MICROS = 253_402_214_400_000_000L;

  private static final String ALL_ROWS = "weaver.allRows";

  private final TableContract contract;

  LiveMarks(TableContract contract) {
    this.contract = contract;
  }

  /** {@code relation} showing only live rows, through its delete-time column. */
  static Filter live(AttributeReference deleteTime, LogicalPlan relation) {
    return new Filter(new EqualTo(deleteTime, sentinel()), relation);
  }

  /** {@code relation} decided as a read of every row. */
  static Filter allRows(LogicalPlan relation) {
    return new Filter(allRowsCondition(), relation);
  }

  /** Whether {@code plan} is one of the marks right above a Delta read. */
  boolean isMark(LogicalPlan plan) {
    if (!(plan instanceof Filter filter) || !(filter.condition() instanceof EqualTo eq)) {
      return false;
    }
    boolean live =
        eq.left() instanceof AttributeReference a
            && a.name().equals(contract.deleteTimeColumn())
            && eq.right() instanceof Literal l
            && l.dataType().equals(DataTypes.TimestampType)
            && Long.valueOf(LIVE_MICROS).equals(l.value());
    return (live || eq.semanticEquals(allRowsCondition()))
        && DeltaRelations.read(filter.child()).isPresent();
  }

  /**
   * {@code target} of a DML statement with every mark taken out (the {@code DeltaTable} API builds
   * DELETE and UPDATE over its DataFrame, which a name read marked).
   */
  LogicalPlan strip(LogicalPlan target) {
    if (isMark(target)) {
      return ((Filter) target).child();
    }
    List<LogicalPlan> children = ScalaSeqs.toList(target.children());
    List<LogicalPlan> stripped = new ArrayList<>(children.size());
    boolean changed = false;
    for (LogicalPlan child : children) {
      LogicalPlan next = strip(child);
      changed |= next != child;
      stripped.add(next);
    }
    return changed ? target.withNewChildren(ScalaSeqs.of(stripped)) : target;
  }

  private static Expression allRowsCondition() {
    return new EqualTo(
        Literal.create(ALL_ROWS, DataTypes.StringType),
        Literal.create(ALL_ROWS, DataTypes.StringType));
  }

  private static Literal sentinel() {
    return new Literal(LIVE_MICROS, DataTypes.TimestampType);
  }
}
