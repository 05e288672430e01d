package io.weaver.compat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkSqlParser;
import org.apache.spark.sql.execution.datasources.CreateTempViewUsing;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Table references of a SQL statement, read with Spark's own parser (an internal API, hence this
 * package): every {@code UnresolvedRelation} in the parsed plan, including CTE definitions and
 * subqueries, and the {@code path} of a {@code CREATE TEMP VIEW … USING <format> OPTIONS (path …)}
 * as {@code [<format>, <path>]}. Nothing is analysed, so the referenced tables need not exist yet.
 *
 * <p>The parser is Spark's {@code SparkSqlParser} without a session, so Check (which starts no
 * Spark) and Build read the same names. It parses every statement a Spark SQL Table may hold (SET,
 * CREATE TEMP VIEW, CACHE TABLE, queries); the Catalyst-only parser would refuse the first two.
 */
public final class SqlReferences {
  // Stateless between calls: each parse gets its own lexer and ANTLR parser.
  private static final ParserInterface PARSER = new SparkSqlParser();

  private SqlReferences() {}

  /**
   * The multipart names a statement reads from, in first-seen order.
   *
   * @throws IllegalArgumentException when Spark's parser refuses the statement
   */
  public static List<List<String>> of(String sql) {
    return of(PARSER, sql);
  }

  private static List<List<String>> of(ParserInterface parser, String sql) {
    LogicalPlan plan;
    try {
      plan = parser.parsePlan(sql);
    } catch (org.apache.spark.sql.catalyst.parser.ParseException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (StackOverflowError e) {
      // ANTLR recurses per nesting level; Check must report, not die, on a hostile body.
      throw new IllegalArgumentException("statement nests too deeply to parse", e);
    }
    Set<List<String>> names = new LinkedHashSet<>();
    walk(plan, names, 0);
    return new ArrayList<>(names);
  }

  private static void walk(LogicalPlan plan, Set<List<String>> names, int depth) {
    if (depth > 500) {
      return;
    }
    if (plan instanceof UnresolvedRelation relation) {
      names.add(List.copyOf(CollectionConverters.asJava(relation.multipartIdentifier())));
    }
    if (plan instanceof CreateTempViewUsing view) {
      // CREATE TEMP VIEW v USING csv OPTIONS (path '…'): a path read, named as `csv`.`…` is.
      CollectionConverters.asJava(view.options()).entrySet().stream()
          .filter(option -> option.getKey().equalsIgnoreCase("path"))
          .findFirst()
          .ifPresent(path -> names.add(List.of(view.provider(), path.getValue())));
    }
    for (LogicalPlan child : CollectionConverters.asJava(plan.children())) {
      walk(child, names, depth + 1);
    }
    for (Object inner : CollectionConverters.asJava(plan.innerChildren())) {
      if (inner instanceof LogicalPlan innerPlan) {
        walk(innerPlan, names, depth + 1);
      }
    }
    for (LogicalPlan subquery : CollectionConverters.asJava(plan.subqueries())) {
      walk(subquery, names, depth + 1);
    }
  }
}
