package io.weaver.catalyst.compat;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.classic.ColumnNodeExpression;
import org.apache.spark.sql.classic.ExpressionUtils;

/**
 * The one place that crosses between the public {@link Column} API and Catalyst expressions. In
 * Spark 4 classic a {@code Column} wraps a {@code ColumnNode}; the conversions live in {@code
 * org.apache.spark.sql.classic}, which is not a stable API, so a new Spark version touches only
 * this class.
 */
public final class SparkColumns {

  private SparkColumns() {}

  /**
   * The Catalyst expression behind {@code column}, unresolved until the analyzer runs (it needs no
   * session).
   */
  public static Expression expression(Column column) {
    return ExpressionUtils.expression(column);
  }

  /** A {@code Column} evaluating {@code expression}. */
  public static Column column(Expression expression) {
    return ExpressionUtils.column(expression);
  }

  /**
   * True for the placeholder that stands for a {@code Column} until the analyzer converts it: it
   * looks resolved but its type is meaningless.
   */
  public static boolean isUnconverted(Expression expression) {
    return expression instanceof ColumnNodeExpression;
  }
}
