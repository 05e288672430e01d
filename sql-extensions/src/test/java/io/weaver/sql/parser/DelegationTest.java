package io.weaver.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.weaver.sql.commands.WeaverStatement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal$;
import org.apache.spark.sql.catalyst.parser.NamedParameterContext;
import org.apache.spark.sql.catalyst.parser.ParameterContext;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkSqlParser;
import org.junit.jupiter.api.Test;

/**
 * Everything that is not a Weaver statement reaches the delegate unchanged: each forwarded method
 * gives exactly what the real delegate gives.
 */
class DelegationTest {
  private final ParserInterface spark = new SparkSqlParser();
  private final WeaverSqlParser parser = new WeaverSqlParser(spark);

  @Test
  void ordinaryStatementsReachTheDelegate() throws Exception {
    for (String sql :
        new String[] {
          "SELECT 1",
          "DESCRIBE TABLE t",
          "SHOW TABLES",
          "DESCRIBE weaver",
          "  -- leading comment\nSELECT a FROM weaver.t",
          "CREATE TABLE t (a INT) USING delta"
        }) {
      assertEquals(normalized(spark.parsePlan(sql)), normalized(parser.parsePlan(sql)), sql);
      assertFalse(parser.parsePlan(sql) instanceof WeaverStatement, sql);
    }
  }

  @Test
  void deltaRestoreReachesTheDelegateWithItsOriginalText() throws Exception {
    ParserInterface delta = new io.delta.sql.parser.DeltaSqlParser(spark);
    WeaverSqlParser withDelta = new WeaverSqlParser(delta);
    String sql = "RESTORE TABLE t TO VERSION AS OF 1";
    assertEquals(normalized(delta.parsePlan(sql)), normalized(withDelta.parsePlan(sql)));
    String named = "RESTORE weaver TO VERSION AS OF 1";
    assertEquals(normalized(delta.parsePlan(named)), normalized(withDelta.parsePlan(named)));
  }

  @Test
  void weaverStatementsDoNotReachTheDelegate() throws Exception {
    assertInstanceOf(WeaverStatement.class, parser.parsePlan("SHOW WEAVER TABLES"));
    assertInstanceOf(
        WeaverStatement.class, parser.parsePlanWithParameters("SHOW WEAVER TABLES", null));
  }

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

  /** The plan's text without expression ids, which differ between two parses. */
  private static String normalized(LogicalPlan plan) {
    return plan.toString().replaceAll("#\\d+", "#");
  }

  @Test
  void parseExpression() throws Exception {
    String text = "a + 1 > b AND c LIKE 'x%'";
    assertEquals(spark.parseExpression(text), parser.parseExpression(text));
  }

  @Test
  void parseTableIdentifier() throws Exception {
    assertEquals(spark.parseTableIdentifier("db.t"), parser.parseTableIdentifier("db.t"));
  }

  @Test
  void parseFunctionIdentifier() throws Exception {
    assertEquals(spark.parseFunctionIdentifier("db.f"), parser.parseFunctionIdentifier("db.f"));
  }

  @Test
  void parseMultipartIdentifier() throws Exception {
    String text = "cat.`my db`.t";
    assertEquals(spark.parseMultipartIdentifier(text), parser.parseMultipartIdentifier(text));
  }

  @Test
  void parseQuery() throws Exception {
    String text = "SELECT a FROM t WHERE b = 1";
    assertEquals(normalized(spark.parseQuery(text)), normalized(parser.parseQuery(text)));
  }

  @Test
  void parseRoutineParam() throws Exception {
    String text = "x INT, y STRING DEFAULT 'a'";
    assertEquals(spark.parseRoutineParam(text), parser.parseRoutineParam(text));
  }

  @Test
  void parseTableSchema() throws Exception {
    String text = "a INT, b STRUCT<c: STRING>";
    assertEquals(spark.parseTableSchema(text), parser.parseTableSchema(text));
  }

  @Test
  void parseDataType() throws Exception {
    String text = "MAP<STRING, ARRAY<DECIMAL(10,2)>>";
    assertEquals(spark.parseDataType(text), parser.parseDataType(text));
  }

  /** Fails when Spark adds a parser method: forward it and add its test above. */
  @Test
  void everyParserInterfaceMethodIsForwarded() throws Exception {
    Set<String> tested =
        Arrays.stream(getClass().getDeclaredMethods())
            .map(Method::getName)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> forwardedOrMissing = new TreeSet<>();
    for (Method m : ParserInterface.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Method mine = WeaverSqlParser.class.getMethod(m.getName(), m.getParameterTypes());
      assertEquals(WeaverSqlParser.class, mine.getDeclaringClass(), m.getName() + " not forwarded");
      if (!m.getName().equals("parsePlan")) {
        forwardedOrMissing.add(m.getName());
      }
    }
    forwardedOrMissing.removeAll(tested);
    assertEquals(Set.of(), forwardedOrMissing, "forwarded methods without a test");
  }
}
