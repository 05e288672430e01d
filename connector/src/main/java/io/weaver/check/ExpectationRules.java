package io.weaver.check;

import io.weaver.compat.RowExpressionParts;
import io.weaver.findings.FindingSink;
import io.weaver.findings.RuleIds;
import io.weaver.metadata.Expectation;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.TableKeys;
import io.weaver.metadata.sql.TsqlRowExpression;
import io.weaver.workspace.Target;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether each expectation's rule means something for one staging row (rule {@code
 * expectation-rule}): it is one expression, reads only business columns, and neither aggregates,
 * windows nor queries other rows. A Lakehouse Table's rule is parsed by Spark's parser; a Warehouse
 * Table's T-SQL rule is read from its tokens ({@link TsqlRowExpression}: there is no T-SQL parser
 * on the JVM, so only what the tokens show is reported, a variable among it; the rest is the
 * engine's, when Build creates the load procedure or at load). The form of {@code Expectations} is
 * the header reader's (rule {@code expectations}).
 */
final class ExpectationRules {
  /**
   * Names Spark's parser leaves as column references but the analyser resolves as functions when no
   * column has the name (e.g. {@code current_date > shipped_on}).
   */
  private static final Set<String> LITERAL_FUNCTIONS =
      Set.of(
          "current_date",
          "current_timestamp",
          "current_time",
          "current_user",
          "user",
          "session_user");

  private static final Pattern SPARK_POSITION =
      Pattern.compile("\\s*\\(line (\\d+), pos (\\d+)\\)");

  /** At most this many business columns are listed in a message when none is close. */
  private static final int LISTED_COLUMNS = 12;

  private final TableDeclaration table;
  private final FindingSink sink;
  private final Optional<List<String>> business;

  private ExpectationRules(
      TableDeclaration table, FindingSink sink, Optional<List<String>> business) {
    this.table = table;
    this.sink = sink;
    this.business = business;
  }

  /**
   * Checks every expectation of {@code table}. {@code business} is the Table's business shape
   * (declared Schema or the query's visible result) when known; without it, columns are not
   * compared.
   */
  static void check(TableDeclaration table, FindingSink sink, Optional<List<String>> business) {
    ExpectationRules rules = new ExpectationRules(table, sink, business);
    if (table.target() == Target.WAREHOUSE && !table.hasLoadProcedure()) {
      table.expectations().stream().findFirst().ifPresent(rules::withoutLoadProcedure);
    } else if (table.target() == Target.WAREHOUSE) {
      table.expectations().forEach(rules::tsqlExpectation);
    } else {
      table.expectations().forEach(rules::expectation);
    }
  }

  /** Expectations on a Table that Weaver does not load would never be evaluated. */
  private void withoutLoadProcedure(Expectation first) {
    sink.error(
        RuleIds.EXPECTATIONS,
        first.pos(),
        table.tableId()
            + " declares 'Has load procedure: false', so no Weaver load tests its rows against"
            + " 'Expectations'; remove them, or let Weaver load the Table");
  }

  /** A Warehouse Table's rule: a T-SQL boolean expression, read from its tokens. */
  private void tsqlExpectation(Expectation e) {
    TsqlRowExpression parts = TsqlRowExpression.of(e.rule());
    for (String problem : parts.problems()) {
      report(
          e,
          "rule is not one T-SQL expression: "
              + problem
              + "; write one boolean expression over the business columns, e.g. 'weight_kg >"
              + " 0'");
    }
    for (String separator : parts.separators()) {
      report(
          e,
          "rule contains statement separator "
              + separator
              + ", but a rule is one boolean expression, placed inside the load procedure's"
              + " statements; remove it");
    }
    otherRows(e, parts.aggregates(), parts.windows(), parts.subqueries());
    for (String variable : parts.variables()) {
      report(
          e,
          "rule reads variable "
              + variable
              + ", but a rule reads only the row's columns (it is placed inside the load"
              + " procedure, where a variable is the procedure's or undeclared); remove it");
    }
    if (!parts.problems().isEmpty()) {
      return; // columns of a rule that cannot be read would only add noise
    }
    for (TsqlRowExpression.Reference reference : parts.columns()) {
      if (reference.parts().size() > 1) {
        report(
            e,
            "rule reads '"
                + String.join(".", reference.parts())
                + "' "
                + reference.where()
                + ", but a rule names its row's columns without a qualifier; write '"
                + reference.parts().get(reference.parts().size() - 1)
                + "'");
      } else {
        column(e, reference.parts());
      }
    }
  }

  private void expectation(Expectation e) {
    RowExpressionParts parts;
    try {
      parts = RowExpressionParts.of(e.rule());
    } catch (IllegalArgumentException parseError) {
      report(
          e,
          "rule is not a Spark SQL expression: "
              + inRule(parseError.getMessage())
              + "; write one boolean expression over the business columns, e.g. 'weight_kg >"
              + " 0'");
      return;
    }
    otherRows(e, parts.aggregates(), parts.windows(), parts.subqueries());
    parts.columns().forEach(name -> column(e, name));
  }

  /** What makes a rule read other rows than its own, in either dialect. */
  private void otherRows(
      Expectation e, List<String> aggregates, List<String> windows, List<String> subqueries) {
    for (String aggregate : aggregates) {
      report(
          e,
          "rule calls aggregate function '"
              + aggregate
              + "', but a rule is checked on each staging row on its own; compare the row's own"
              + " columns, and check a whole-table property with an authored test instead");
    }
    for (String window : windows) {
      report(
          e,
          "rule uses window function "
              + window
              + ", but a rule is checked on each staging row on its own, without its neighbours;"
              + " compare the row's own columns, or check it with an authored test");
    }
    for (String subquery : subqueries) {
      report(
          e,
          "rule contains a subquery "
              + subquery
              + ", but a rule sees only its own staging row; declare a foreign key or write an"
              + " authored test to compare with other tables");
    }
  }

  /**
   * One column reference. Its name parts may be a column and a struct field ({@code address.city})
   * or a qualifier and a column ({@code t.weight_kg}): the first or the last part must be a
   * business column, compared ignoring case as Spark resolves them.
   */
  private void column(Expectation e, List<String> parts) {
    String first = parts.get(0);
    String last = parts.get(parts.size() - 1);
    String written = String.join(".", parts);
    Target target = table.target();
    Optional<String> managed =
        ManagedColumns.collision(target, first).or(() -> ManagedColumns.collision(target, last));
    if (managed.isPresent()) {
      report(
          e,
          "rule reads managed column '"
              + managed.get()
              + "', but a rule sees only business columns ("
              + String.join(", ", ManagedColumns.names(target))
              + " are set when the row is written, after expectations are checked); remove it"
              + " from the rule");
      return;
    }
    if (business.isEmpty() || isBusiness(first) || isBusiness(last)) {
      return;
    }
    if (target == Target.LAKEHOUSE
        && parts.size() == 1
        && LITERAL_FUNCTIONS.contains(first.toLowerCase(Locale.ROOT))) {
      return;
    }
    if (table.identity().map(last::equalsIgnoreCase).orElse(false)) {
      report(
          e,
          "rule reads Identity column '"
              + written
              + "', which Weaver generates when the row is written, after expectations are"
              + " checked; a rule sees only business columns, remove it from the rule");
      return;
    }
    String shape = table.schema().isPresent() ? "Schema" : "the query result";
    List<String> columns = business.get();
    String hint =
        TableKeys.suggest(last, columns)
            .map(s -> "; did you mean '" + s + "'?")
            .orElse(
                columns.size() <= LISTED_COLUMNS
                    ? "; use one of: " + String.join(", ", columns)
                    : "; use a business column of " + shape);
    report(e, "rule reads column '" + written + "', which " + shape + " does not have" + hint);
  }

  /**
   * Spark's "(line 1, pos 10)" counts in the rule's own text from 0; said so, from 1, since the
   * finding's own line and column are the file's.
   */
  private static String inRule(String sparkMessage) {
    Matcher m = SPARK_POSITION.matcher(sparkMessage);
    if (!m.find()) {
      return sparkMessage;
    }
    int character = Integer.parseInt(m.group(2)) + 1;
    String where =
        m.group(1).equals("1")
            ? "at character " + character + " of the rule"
            : "at line " + m.group(1) + ", character " + character + " of the rule";
    String before = sparkMessage.substring(0, m.start()).strip();
    if (before.endsWith(".")) {
      before = before.substring(0, before.length() - 1);
    }
    return (before + " " + where + sparkMessage.substring(m.end())).strip();
  }

  private boolean isBusiness(String name) {
    return business.get().stream().anyMatch(b -> b.equalsIgnoreCase(name));
  }

  private void report(Expectation e, String message) {
    sink.error(
        RuleIds.EXPECTATION_RULE,
        e.rulePos(),
        "expectation '" + e.name() + "' of " + table.tableId() + ": " + message);
  }
}
