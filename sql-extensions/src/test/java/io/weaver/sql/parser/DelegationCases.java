package io.weaver.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.catalyst.compat.DelegatingParser;
import io.weaver.sql.commands.WeaverStatement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkSqlParser;
import org.junit.jupiter.api.Test;

/**
 * Everything that is not a Weaver statement reaches the delegate unchanged: each forwarded method
 * gives exactly what the real delegate gives. Run as {@code DelegationTest}, one per Spark line
 * (src/test/spark-*), which adds the cases of the parser methods only that line has.
 */
abstract class DelegationCases {
  final ParserInterface spark = new SparkSqlParser();
  final WeaverSqlParser parser = new WeaverSqlParser(spark);

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
  }

  /** The plan's text without expression ids, which differ between two parses. */
  static String normalized(LogicalPlan plan) {
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
    Set<String> tested = new TreeSet<>();
    for (Class<?> c = getClass(); c != Object.class; c = c.getSuperclass()) {
      Arrays.stream(c.getDeclaredMethods()).map(Method::getName).forEach(tested::add);
    }
    Set<String> forwardedOrMissing = new TreeSet<>();
    for (Method m : ParserInterface.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Method mine = WeaverSqlParser.class.getMethod(m.getName(), m.getParameterTypes());
      // DelegatingParser forwards the entries only some Spark lines have (per-line source).
      assertTrue(
          Set.of(WeaverSqlParser.class, DelegatingParser.class).contains(mine.getDeclaringClass()),
          m.getName() + " not forwarded");
      if (!m.getName().equals("parsePlan")) {
        forwardedOrMissing.add(m.getName());
      }
    }
    forwardedOrMissing.removeAll(tested);
    assertEquals(Set.of(), forwardedOrMissing, "forwarded methods without a test");
  }
}
