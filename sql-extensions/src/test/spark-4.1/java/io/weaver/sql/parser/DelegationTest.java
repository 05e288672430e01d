package io.weaver.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.weaver.sql.commands.WeaverStatement;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.parser.NamedParameterContext;
import org.apache.spark.sql.catalyst.parser.ParameterContext;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.junit.jupiter.api.Test;

/** {@link DelegationCases} on Spark 4.1 and later, with the parser's entry for parameters. */
class DelegationTest extends DelegationCases {
  @Test
  void parsePlanWithParameters() throws Exception {
    String sql = "SELECT :x AS one FROM t";
    ParameterContext x =
        NamedParameterContext.apply(
            scala.collection.immutable.Map$.MODULE$
                .<String, Expression>empty()
                .updated("x", Literal$.MODULE$.apply(1)));
    LogicalPlan expected = spark.parsePlanWithParameters(sql, x);
    assertEquals(normalized(expected), normalized(parser.parsePlanWithParameters(sql, x)));
    // Proves the parameters reached the parser: the marker is gone, the literal is there.
    assertFalse(expected.toString().contains(":x"), expected.toString());
  }

  @Test
  void weaverStatementsWithParametersDoNotReachTheDelegate() throws Exception {
    assertInstanceOf(
        WeaverStatement.class, parser.parsePlanWithParameters("SHOW WEAVER TABLES", null));
  }
}
