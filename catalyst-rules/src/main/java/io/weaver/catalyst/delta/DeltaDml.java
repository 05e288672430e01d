package io.weaver.catalyst.delta;

import io.weaver.catalyst.compat.ScalaSeqs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.logical.DeltaMergeAction;
import org.apache.spark.sql.catalyst.plans.logical.DeltaMergeIntoClause;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.actions.Metadata;
import org.apache.spark.sql.delta.commands.DeleteCommand;
import org.apache.spark.sql.delta.commands.MergeIntoCommand;
import org.apache.spark.sql.delta.commands.UpdateCommand;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads Delta's DML commands, which is what a check rule sees: Delta rewrites {@code DELETE},
 * {@code UPDATE} and {@code MERGE} into its internal {@link DeleteCommand}, {@link UpdateCommand}
 * and {@link MergeIntoCommand} during resolution, whatever the path (SQL on a catalog name, SQL on
 * {@code delta.`path`}, the {@code DeltaTable} API). Delta's internal classes stay in this class.
 */
public final class DeltaDml {
  private DeltaDml() {}

  /**
   * One DML write on a Delta table.
   *
   * @param operation {@code DELETE}, {@code UPDATE} or {@code MERGE}
   * @param properties the table's properties (Delta configuration)
   * @param schema the table's schema, with column metadata (identity columns carry {@code
   *     delta.identity.*})
   * @param unconditional an UPDATE or DELETE without a WHERE clause
   * @param assignedColumns target columns the statement writes a value to (MERGE inserts included)
   */
  public record Write(
      String operation,
      String path,
      Map<String, String> properties,
      StructType schema,
      boolean unconditional,
      List<String> assignedColumns) {}

  /** The write {@code plan} performs when it is one of Delta's DML commands. */
  public static Optional<Write> of(LogicalPlan plan) {
    if (plan instanceof DeleteCommand delete) {
      return Optional.of(write("DELETE", delete.deltaLog(), always(delete.condition()), List.of()));
    }
    if (plan instanceof UpdateCommand update) {
      List<Attribute> columns = ScalaSeqs.toList(update.target().output());
      List<Expression> values = ScalaSeqs.toList(update.updateExpressions());
      List<String> assigned = new ArrayList<>();
      for (int i = 0; i < Math.min(columns.size(), values.size()); i++) {
        if (!isColumnItself(values.get(i), columns.get(i))) {
          assigned.add(columns.get(i).name());
        }
      }
      return Optional.of(
          write(
              "UPDATE", update.tahoeFileIndex().deltaLog(), always(update.condition()), assigned));
    }
    if (plan instanceof MergeIntoCommand merge) {
      AttributeSet target = merge.target().outputSet();
      List<String> assigned = new ArrayList<>();
      List<DeltaMergeIntoClause> updates = new ArrayList<>();
      updates.addAll(ScalaSeqs.toList(merge.matchedClauses()));
      updates.addAll(ScalaSeqs.toList(merge.notMatchedBySourceClauses()));
      for (DeltaMergeIntoClause clause : updates) {
        for (Expression e : ScalaSeqs.toList(clause.actions())) {
          if (e instanceof DeltaMergeAction action && !keepsTargetValue(action, target)) {
            assigned.add(name(action));
          }
        }
      }
      for (DeltaMergeIntoClause clause : ScalaSeqs.toList(merge.notMatchedClauses())) {
        for (Expression e : ScalaSeqs.toList(clause.actions())) {
          if (e instanceof DeltaMergeAction action && !isNull(action.expr())) {
            assigned.add(name(action));
          }
        }
      }
      return Optional.of(write("MERGE", merge.targetFileIndex().deltaLog(), false, assigned));
    }
    return Optional.empty();
  }

  private static Write write(
      String operation, DeltaLog log, boolean unconditional, List<String> assigned) {
    Metadata metadata = log.unsafeVolatileSnapshot().metadata();
    return new Write(
        operation,
        log.dataPath().toString(),
        Map.copyOf(CollectionConverters.asJava(metadata.configuration())),
        metadata.schema(),
        unconditional,
        List.copyOf(assigned));
  }

  /** No WHERE clause: Spark's parser gives DELETE a literal {@code true} condition then. */
  private static boolean always(Option<Expression> condition) {
    if (condition.isEmpty()) {
      return true;
    }
    Expression c = condition.get();
    try {
      return c.foldable() && Boolean.TRUE.equals(c.eval(null));
    } catch (RuntimeException evalFailed) {
      return false;
    }
  }

  private static Expression unalias(Expression e) {
    return e instanceof Alias alias ? alias.child() : e;
  }

  /** An UPDATE leaves a column alone by "assigning" the column's own attribute. */
  private static boolean isColumnItself(Expression value, Attribute column) {
    return unalias(value) instanceof Attribute a && a.exprId().equals(column.exprId());
  }

  /** A MERGE update action that sets a target column to its own value. */
  private static boolean keepsTargetValue(DeltaMergeAction action, AttributeSet target) {
    return unalias(action.expr()) instanceof Attribute a
        && target.contains(a)
        && a.name().equalsIgnoreCase(lastPart(action));
  }

  /** A MERGE insert action Delta filled in for a column the statement did not give. */
  private static boolean isNull(Expression e) {
    try {
      return e.foldable() && e.eval(null) == null;
    } catch (RuntimeException evalFailed) {
      return false;
    }
  }

  private static String name(DeltaMergeAction action) {
    return String.join(".", ScalaSeqs.toList(action.targetColNameParts()));
  }

  private static String lastPart(DeltaMergeAction action) {
    List<String> parts = ScalaSeqs.toList(action.targetColNameParts());
    return parts.isEmpty() ? "" : parts.get(parts.size() - 1);
  }
}
