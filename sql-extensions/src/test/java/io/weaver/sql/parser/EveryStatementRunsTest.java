package io.weaver.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.sql.commands.BuildWeaverCommand;
import io.weaver.sql.commands.CheckWeaverCommand;
import io.weaver.sql.commands.DescribeWeaverLoadCommand;
import io.weaver.sql.commands.DescribeWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverItemCommand;
import io.weaver.sql.commands.LoadWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverTableFromCommand;
import io.weaver.sql.commands.PlanWeaverCommand;
import io.weaver.sql.commands.PublishWeaverItemCommand;
import io.weaver.sql.commands.PublishWeaverRunCommand;
import io.weaver.sql.commands.RestoreWeaverItemCommand;
import io.weaver.sql.commands.RestoreWeaverTableCommand;
import io.weaver.sql.commands.ShowWeaverLoadPlanCommand;
import io.weaver.sql.commands.ShowWeaverLoadsCommand;
import io.weaver.sql.commands.ShowWeaverPublishesCommand;
import io.weaver.sql.commands.ShowWeaverTablesCommand;
import io.weaver.sql.commands.TestWeaverCommand;
import io.weaver.sql.commands.WeaverStatement;
import io.weaver.sql.testing.SqlSession;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ParseTree;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.classic.SparkSession;
import org.apache.spark.sql.execution.CommandExecutionMode;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.command.ExecutedCommandExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every statement the grammar accepts reaches execution: an example of each grammar alternative,
 * parsed by the session's parser (Weaver's extension installed), is the Weaver statement command
 * Spark plans as {@code ExecutedCommandExec}, so {@code spark.sql(...)} runs it. The table of
 * examples must cover every labelled alternative of WeaverSqlBase.g4 and every statement class, so
 * a new statement without an example (or without a node that runs) fails here, not for a user.
 */
class EveryStatementRunsTest {
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = (SparkSession) SqlSession.get();
    spark.conf().unset("spark.weaver.workspace");
  }

  @AfterAll
  static void stop() {
    SqlSession.stop();
  }

  record Example(String sql, Class<? extends WeaverStatement> node) {
    @Override
    public String toString() {
      return sql;
    }
  }

  static List<Example> examples() {
    return List.of(
        new Example("CHECK WEAVER", CheckWeaverCommand.class),
        new Example("CHECK WEAVER WORKSPACE '/ws'", CheckWeaverCommand.class),
        new Example("BUILD WEAVER ITEM Sales ALLOW DESTRUCTIVE", BuildWeaverCommand.class),
        new Example(
            "PLAN WEAVER TABLE Sales.dbo.Order WAIVE STABILITY GATES", PlanWeaverCommand.class),
        new Example("LOAD WEAVER TABLE Sales.dbo.Order", LoadWeaverTableCommand.class),
        new Example(
            "LOAD WEAVER TABLE a.b FROM VIEW v DELETE KEYS FROM VIEW k",
            LoadWeaverTableFromCommand.class),
        new Example(
            "LOAD WEAVER TABLE a.b DELETE KEYS FROM VIEW k", LoadWeaverTableFromCommand.class),
        new Example(
            "LOAD WEAVER TABLE a.b WITH NO WORK BOOKMARK 'null' CONTEXT 't'",
            LoadWeaverTableFromCommand.class),
        new Example("LOAD WEAVER TABLE a.b FAILED 'boom'", LoadWeaverTableFromCommand.class),
        new Example("LOAD WEAVER TABLE a.b IN RUN 'r1'", LoadWeaverTableCommand.class),
        new Example(
            "LOAD WEAVER TABLE a.b WITH NO WORK CONTEXT 't' IN RUN 'r1' WAIVE STABILITY GATES",
            LoadWeaverTableFromCommand.class),
        new Example(
            "LOAD WEAVER ITEM `My Item` WAIVE STABILITY GATES", LoadWeaverItemCommand.class),
        new Example("TEST WEAVER", TestWeaverCommand.class),
        new Example("SHOW WEAVER TABLES IN Sales", ShowWeaverTablesCommand.class),
        new Example("DESCRIBE WEAVER TABLE Load.Table.Weaver", DescribeWeaverTableCommand.class),
        new Example("DESCRIBE WEAVER LOAD TABLE a.b", DescribeWeaverLoadCommand.class),
        new Example("DESCRIBE WEAVER LOAD TABLE a.b IN RUN 'r1'", DescribeWeaverLoadCommand.class),
        new Example("SHOW WEAVER LOAD PLAN ITEM Sales", ShowWeaverLoadPlanCommand.class),
        new Example("SHOW WEAVER LOAD PLAN OPEN RUN", ShowWeaverLoadPlanCommand.class),
        new Example("SHOW WEAVER LOADS FOR a.b LIMIT 5", ShowWeaverLoadsCommand.class),
        new Example("RESTORE WEAVER TABLE a.b TO LOAD 'x'", RestoreWeaverTableCommand.class),
        new Example("PUBLISH WEAVER ITEM Sales", PublishWeaverItemCommand.class),
        new Example("PUBLISH WEAVER RUN 'r1'", PublishWeaverRunCommand.class),
        new Example("SHOW WEAVER PUBLISHES FOR Sales LIMIT 3", ShowWeaverPublishesCommand.class),
        new Example("RESTORE WEAVER ITEM Sales TO PUBLISH 'p1'", RestoreWeaverItemCommand.class));
  }

  @ParameterizedTest
  @MethodSource("examples")
  void parsesIntoACommandSparkRuns(Example example) throws Exception {
    LogicalPlan parsed = spark.sessionState().sqlParser().parsePlan(example.sql());
    assertInstanceOf(example.node(), parsed, example.sql());
    assertTrue(parsed.resolved(), example.sql());
    // planned as Spark plans spark.sql(...), without running it
    SparkPlan planned =
        spark.sessionState().executePlan(parsed, CommandExecutionMode.SKIP()).sparkPlan();
    ExecutedCommandExec exec = assertInstanceOf(ExecutedCommandExec.class, planned, example.sql());
    assertEquals(parsed, exec.cmd(), example.sql());
  }

  @Test
  void theExamplesCoverEveryGrammarAlternative() {
    Set<String> covered = new TreeSet<>();
    for (Example example : examples()) {
      WeaverSqlBaseParser parser =
          new WeaverSqlBaseParser(
              new CommonTokenStream(new WeaverSqlBaseLexer(CharStreams.fromString(example.sql()))));
      collectAlternatives(parser.singleStatement(), covered);
    }
    assertEquals(labelledAlternatives(), covered, "grammar alternatives without an example");
  }

  @Test
  void theExamplesCoverEveryStatementClass() {
    Set<String> statements =
        Arrays.stream(WeaverStatement.class.getPermittedSubclasses())
            .map(Class::getSimpleName)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> covered =
        examples().stream()
            .map(e -> e.node().getSimpleName())
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(statements, covered, "statement classes without an example");
  }

  /** Every {@code #label} of the grammar: a generated context class extending a rule's context. */
  private static Set<String> labelledAlternatives() {
    return Stream.of(WeaverSqlBaseParser.class.getClasses())
        .filter(c -> c.getSuperclass().getEnclosingClass() == WeaverSqlBaseParser.class)
        .map(Class::getSimpleName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static void collectAlternatives(ParseTree tree, Set<String> into) {
    if (tree instanceof ParserRuleContext
        && tree.getClass().getSuperclass().getEnclosingClass() == WeaverSqlBaseParser.class) {
      into.add(tree.getClass().getSimpleName());
    }
    for (int i = 0; i < tree.getChildCount(); i++) {
      collectAlternatives(tree.getChild(i), into);
    }
  }
}
