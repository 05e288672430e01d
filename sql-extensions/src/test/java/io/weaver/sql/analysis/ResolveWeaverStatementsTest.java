package io.weaver.sql.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.sql.commands.CheckWeaverCommand;
import io.weaver.sql.commands.DescribeWeaverLoadCommand;
import io.weaver.sql.commands.LoadWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverTableFromCommand;
import io.weaver.sql.commands.ShowWeaverLoadPlanCommand;
import io.weaver.sql.commands.TestWeaverCommand;
import io.weaver.sql.plans.CheckWeaverStatement;
import io.weaver.sql.plans.DescribeWeaverLoad;
import io.weaver.sql.plans.LoadWeaverTable;
import io.weaver.sql.plans.LoadWeaverTableFrom;
import io.weaver.sql.plans.Scope;
import io.weaver.sql.plans.ShowWeaverLoadPlan;
import io.weaver.sql.plans.TableIdentity;
import io.weaver.sql.plans.TestWeaverStatement;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OneRowRelation;
import org.junit.jupiter.api.Test;

/** The resolution rule and the commands' Catalyst plumbing, without a session. */
class ResolveWeaverStatementsTest {
  private final ResolveWeaverStatements rule = new ResolveWeaverStatements();

  @Test
  void checkBecomesTheCheckCommand() {
    LogicalPlan resolved = rule.apply(new CheckWeaverStatement(Optional.of("/ws")));
    CheckWeaverCommand command = assertInstanceOf(CheckWeaverCommand.class, resolved);
    assertEquals(Optional.of("/ws"), command.workspace());
    assertTrue(command.resolved());
    assertEquals(CheckWeaverCommand.SCHEMA.fieldNames().length, command.output().size());
  }

  @Test
  void loadBecomesTheLoadCommand() {
    LogicalPlan resolved =
        rule.apply(new LoadWeaverTable(TableIdentity.of(List.of("A", "B", "C")), false));
    LoadWeaverTableCommand command = assertInstanceOf(LoadWeaverTableCommand.class, resolved);
    assertTrue(command.simpleString(25).contains("A.B.C"), command.simpleString(25));
    assertTrue(command.resolved());
  }

  @Test
  void testWeaverResolvesToItsCommand() {
    LogicalPlan resolved = rule.apply(new TestWeaverStatement(Scope.workspace()));
    assertInstanceOf(TestWeaverCommand.class, resolved);
  }

  @Test
  void theClientLoadStatementsResolveToTheirCommands() {
    TableIdentity abc = TableIdentity.of(List.of("A", "B", "C"));
    assertInstanceOf(DescribeWeaverLoadCommand.class, rule.apply(new DescribeWeaverLoad(abc)));
    assertInstanceOf(
        ShowWeaverLoadPlanCommand.class, rule.apply(new ShowWeaverLoadPlan(Scope.item("A"))));
    LogicalPlan load =
        rule.apply(
            new LoadWeaverTableFrom(
                abc,
                Optional.of("v"),
                Optional.of("k"),
                Optional.empty(),
                Optional.of("{}"),
                Optional.of("t"),
                true));
    LoadWeaverTableFromCommand command = assertInstanceOf(LoadWeaverTableFromCommand.class, load);
    assertTrue(command.resolved());
    // Spark's reflective copy rebuilds it from its fields
    Object[] args = {
      abc,
      Optional.of("v2"),
      Optional.empty(),
      Optional.empty(),
      Optional.empty(),
      Optional.empty(),
      false,
      command.output()
    };
    LogicalPlan copy = command.makeCopy(args);
    assertEquals(command.output(), copy.output());
    assertTrue(copy.simpleString(25).contains("v2"), copy.simpleString(25));
  }

  @Test
  void otherPlansAreLeftAlone() {
    LogicalPlan plan = new OneRowRelation();
    assertSame(plan, rule.apply(plan));
  }

  @Test
  void sparksReflectiveCopyKeepsTheOutputIds() {
    CheckWeaverCommand command = new CheckWeaverCommand(Optional.of("/ws"));
    Object[] args = {Optional.of("/other"), command.output()};
    LogicalPlan copy = command.makeCopy(args);
    assertNotSame(command, copy);
    assertEquals(new CheckWeaverCommand(Optional.of("/other"), command.output()), copy);
    assertEquals(command.output(), copy.output());
  }
}
