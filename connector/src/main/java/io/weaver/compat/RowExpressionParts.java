package io.weaver.compat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry$;
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.expressions.Exists;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.expressions.ListQuery;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.expressions.UnresolvedWindowExpression;
import org.apache.spark.sql.catalyst.expressions.WindowExpression;
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser$;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What a single SQL expression (an expectation's rule) is made of, read with Spark's own parser
 * without a session (an internal API, hence this package): the column names it reads and the parts
 * that would make it more than a per-row test (aggregates, windows, subqueries). Nothing is
 * analysed, so the columns need not exist anywhere; the caller compares them with a shape.
 *
 * @param columns every column reference as its name parts ({@code t.a} is {@code [t, a]}), in
 *     first-seen order, without repeats; lambda variables ({@code x -> x > 0}) are not columns
 * @param aggregates the aggregate functions called (Spark's built-in group {@code agg_funcs}, or
 *     any call with {@code DISTINCT} or {@code FILTER}), lower case, without repeats
 * @param windows the window functions called or {@code OVER} clauses written, as written
 * @param subqueries how each subquery is written ({@code (SELECT …)}, {@code EXISTS (…)}, {@code IN
 *     (SELECT …)})
 */
public record RowExpressionParts(
    List<List<String>> columns,
    List<String> aggregates,
    List<String> windows,
    List<String> subqueries) {

  /** Deeper than this, a tree is hostile rather than authored; the rest is not walked. */
  private static final int MAX_DEPTH = 500;

  /**
   * Spark's Catalyst parser, stateless between calls; typed as the interface, whose methods declare
   * the ParseException they throw.
   */
  private static final ParserInterface PARSER = CatalystSqlParser$.MODULE$;

  private static final String AGGREGATE_GROUP = "agg_funcs";
  private static final String WINDOW_GROUP = "window_funcs";

  public RowExpressionParts {
    columns = List.copyOf(columns);
    aggregates = List.copyOf(aggregates);
    windows = List.copyOf(windows);
    subqueries = List.copyOf(subqueries);
  }

  /**
   * Parses {@code text} as one expression.
   *
   * @throws IllegalArgumentException when Spark's parser refuses it; the message is the first line
   *     of Spark's, without its SQLSTATE (the rest repeats the text with a caret)
   */
  public static RowExpressionParts of(String text) {
    Expression expression;
    try {
      expression = PARSER.parseExpression(text);
    } catch (ParseException e) {
      throw new IllegalArgumentException(firstLine(e.getMessage()), e);
    } catch (StackOverflowError e) {
      // ANTLR recurses per nesting level; Check must report, not die, on a hostile rule.
      throw new IllegalArgumentException("the expression nests too deeply to parse", e);
    }
    Walk walk = new Walk();
    walk.visit(expression, 0);
    return new RowExpressionParts(
        new ArrayList<>(walk.columns),
        new ArrayList<>(walk.aggregates),
        new ArrayList<>(walk.windows),
        new ArrayList<>(walk.subqueries));
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "the expression does not parse";
    }
    // Spark's message starts with a line break, then "[CLASS] what. SQLSTATE: 42601 (line, pos)".
    return message
        .strip()
        .lines()
        .findFirst()
        .orElse("the expression does not parse")
        .replaceAll("\\s*SQLSTATE: \\w+", "")
        .strip();
  }

  private static final class Walk {
    final Set<List<String>> columns = new LinkedHashSet<>();
    final Set<String> aggregates = new LinkedHashSet<>();
    final Set<String> windows = new LinkedHashSet<>();
    final Set<String> subqueries = new LinkedHashSet<>();

    void visit(Expression expression, int depth) {
      if (depth > MAX_DEPTH) {
        return;
      }
      if (expression instanceof UnresolvedAttribute attribute) {
        columns.add(List.copyOf(CollectionConverters.asJava(attribute.nameParts())));
      } else if (expression instanceof UnresolvedFunction function) {
        function(function);
      } else if (expression instanceof WindowExpression window) {
        windows.add(functionName(window.windowFunction()) + " OVER (…)");
        // The function is reported with its OVER, not again as an aggregate; its arguments and
        // the window's partitioning and ordering are still read for their columns.
        visitChildren(window.windowFunction(), depth + 1);
        visitChildren(window.windowSpec(), depth + 1);
        return;
      } else if (expression instanceof UnresolvedWindowExpression window) {
        windows.add(functionName(window.child()) + " OVER " + window.windowSpec().name());
        visitChildren(window.child(), depth + 1);
        return;
      } else if (expression instanceof SubqueryExpression subquery) {
        // The subquery's plan is not a child: its columns are another table's, not this row's.
        subqueries.add(subqueryForm(subquery));
      }
      visitChildren(expression, depth);
    }

    private void visitChildren(Expression expression, int depth) {
      for (Expression child : CollectionConverters.asJava(expression.children())) {
        visit(child, depth + 1);
      }
    }

    private static String functionName(Expression function) {
      if (function instanceof UnresolvedFunction f) {
        List<String> parts = CollectionConverters.asJava(f.nameParts());
        return parts.get(parts.size() - 1).toLowerCase(Locale.ROOT) + "(…)";
      }
      return function.prettyName() + "(…)";
    }

    private void function(UnresolvedFunction function) {
      List<String> parts = CollectionConverters.asJava(function.nameParts());
      String name = parts.get(parts.size() - 1).toLowerCase(Locale.ROOT);
      String group = builtinGroup(name);
      if (AGGREGATE_GROUP.equals(group) || function.isDistinct() || function.filter().isDefined()) {
        aggregates.add(name);
      } else if (WINDOW_GROUP.equals(group)) {
        windows.add(name + "()");
      }
    }

    private static String builtinGroup(String name) {
      Option<ExpressionInfo> info =
          FunctionRegistry$.MODULE$.builtin().lookupFunction(FunctionIdentifier.apply(name));
      return info.isDefined() ? info.get().getGroup() : null;
    }

    private static String subqueryForm(SubqueryExpression subquery) {
      if (subquery instanceof Exists) {
        return "EXISTS (SELECT …)";
      }
      return subquery instanceof ListQuery ? "IN (SELECT …)" : "(SELECT …)";
    }
  }
}
