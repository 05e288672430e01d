package io.weaver.sql.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.sql.plans.ClientInput;
import io.weaver.sql.plans.TableIdentity;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.junit.jupiter.api.Test;

/** The statement nodes' Catalyst plumbing, without a session. */
class WeaverStatementNodesTest {

  @Test
  void aStatementIsAResolvedCommandWithItsSchema() {
    CheckWeaverCommand command = new CheckWeaverCommand(Optional.of("/ws"));
    assertEquals(Optional.of("/ws"), command.workspace());
    assertTrue(command.resolved());
    assertEquals(CheckWeaverCommand.SCHEMA.fieldNames().length, command.output().size());
  }

  @Test
  void itsStringNamesWhatItSays() {
    LoadWeaverTableCommand command =
        new LoadWeaverTableCommand(TableIdentity.of(List.of("A", "B", "C")), false);
    assertTrue(command.simpleString(25).contains("A.B.C"), command.simpleString(25));
    assertTrue(command.resolved());
  }

  @Test
  void theClientLoadIsRebuiltFromItsFields() {
    TableIdentity abc = TableIdentity.of(List.of("A", "B", "C"));
    LoadWeaverTableFromCommand command =
        new LoadWeaverTableFromCommand(
            abc,
            new ClientInput.FromViews("v", Optional.of("k")),
            Optional.of("{}"),
            Optional.of("t"),
            true);
    assertTrue(command.resolved());
    // Spark's reflective copy rebuilds it from its fields
    Object[] args = {
      abc,
      new ClientInput.FromViews("v2", Optional.empty()),
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
  void sparksReflectiveCopyKeepsTheOutputIds() {
    CheckWeaverCommand command = new CheckWeaverCommand(Optional.of("/ws"));
    Object[] args = {Optional.of("/other"), command.output()};
    LogicalPlan copy = command.makeCopy(args);
    assertNotSame(command, copy);
    assertEquals(new CheckWeaverCommand(Optional.of("/other"), command.output()), copy);
    assertEquals(command.output(), copy.output());
  }
}
