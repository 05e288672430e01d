package io.weaver.catalyst.compat;

import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * A SQL parser that claims some statements and hands the rest to another parser. This copy is for
 * Spark 4.0, whose parser has no entry for plans with parameters (Spark 4.0 binds parameters in the
 * analyser, after parsing), so the plain {@code parsePlan} is the only one; src/main/spark-4.1
 * routes the parameterised entry through the same hook.
 */
public abstract class DelegatingParser implements ParserInterface {
  /** The parser this one hands the statements it does not claim to. */
  public abstract ParserInterface delegate();

  /** The plan of {@code sqlText}: this parser's own when it claims it, else {@code delegated}'s. */
  protected abstract LogicalPlan parsePlan(String sqlText, Parse delegated) throws ParseException;

  /** The delegate's parse of a statement. */
  @FunctionalInterface
  protected interface Parse {
    LogicalPlan plan() throws ParseException;
  }
}
