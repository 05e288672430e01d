package io.weaver.compat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Table references of a SQL statement, read with Spark's own parser (an internal API, hence this
 * package): every {@code UnresolvedRelation} in the parsed plan, including CTE definitions and
 * subqueries. Nothing is analysed, so the referenced tables need not exist yet.
 */
public final class SqlReferences {
  private SqlReferences() {}

  /** The multipart names a statement reads from, in first-seen order. */
  public static List<List<String>> of(SparkSession spark, String sql) {
    LogicalPlan plan;
    try {
      plan = spark.sessionState().sqlParser().parsePlan(sql);
    } catch (org.apache.spark.sql.catalyst.parser.ParseException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
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
