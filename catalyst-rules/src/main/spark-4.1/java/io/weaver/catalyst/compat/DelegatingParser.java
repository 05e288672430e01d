package io.weaver.catalyst.compat;

import org.apache.spark.sql.catalyst.parser.ParameterContext;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * A SQL parser that claims some statements and hands the rest to another parser. This copy is for
 * Spark 4.1 and later, whose parser also parses plans with parameters ({@code spark.sql(text,
 * args)}): that entry goes through the same {@link #parsePlan(String, Parse)} as the plain one, so
 * a claimed statement is claimed whichever way it comes; Spark 4.0 has only the plain one
 * (src/main/spark-4.0 has the same hook).
 */
public abstract class DelegatingParser implements ParserInterface {
  /** The parser this one hands the statements it does not claim to. */
  public abstract ParserInterface delegate();

  /** The plan of {@code sqlText}: this parser's own when it claims it, else {@code delegated}'s. */
  protected abstract LogicalPlan parsePlan(String sqlText, Parse delegated) throws ParseException;

  @Override
  public LogicalPlan parsePlanWithParameters(String sqlText, ParameterContext parameters)
      throws ParseException {
    return parsePlan(sqlText, () -> delegate().parsePlanWithParameters(sqlText, parameters));
  }

  /** The delegate's parse of a statement. */
  @FunctionalInterface
  protected interface Parse {
    LogicalPlan plan() throws ParseException;
  }
}
