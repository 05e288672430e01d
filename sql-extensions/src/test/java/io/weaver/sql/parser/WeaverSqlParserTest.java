package io.weaver.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.sql.commands.BuildWeaverCommand;
import io.weaver.sql.commands.CheckWeaverCommand;
import io.weaver.sql.commands.DescribeWeaverLoadCommand;
import io.weaver.sql.commands.DescribeWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverItemCommand;
import io.weaver.sql.commands.LoadWeaverTableCommand;
import io.weaver.sql.commands.LoadWeaverTableFromCommand;
import io.weaver.sql.commands.PlanWeaverCommand;
import io.weaver.sql.commands.RestoreWeaverTableCommand;
import io.weaver.sql.commands.ShowWeaverLoadPlanCommand;
import io.weaver.sql.commands.ShowWeaverLoadsCommand;
import io.weaver.sql.commands.ShowWeaverTablesCommand;
import io.weaver.sql.commands.TestWeaverCommand;
import io.weaver.sql.commands.WeaverStatement;
import io.weaver.sql.plans.ClientInput;
import io.weaver.sql.plans.Scope;
import io.weaver.sql.plans.TableIdentity;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser$;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.junit.jupiter.api.Test;

/** Weaver statements parse into the right nodes; no Spark session needed. */
class WeaverSqlParserTest {
  private final WeaverSqlParser parser = new WeaverSqlParser(CatalystSqlParser$.MODULE$);

  private LogicalPlan plan(String sql) throws ParseException {
    return parser.parsePlan(sql);
  }

  /** What a parsed statement says: its class and arguments (each parse has new output ids). */
  private Object parse(String sql) throws ParseException {
    return said(plan(sql));
  }

  private static Object said(LogicalPlan statement) {
    return List.of(statement.getClass(), ((WeaverStatement) statement).arguments());
  }

  private static TableIdentity id(String... parts) {
    return TableIdentity.of(List.of(parts));
  }

  @Test
  void checkWeaver() throws Exception {
    assertEquals(said(new CheckWeaverCommand(Optional.empty())), parse("CHECK WEAVER"));
    assertEquals(
        said(new CheckWeaverCommand(Optional.of("/tmp/ws"))),
        parse("CHECK WEAVER WORKSPACE '/tmp/ws'"));
  }

  @Test
  void checkWeaverWorkspaceKeepsBackslashesAndUndoublesQuotes() throws Exception {
    assertEquals(
        said(new CheckWeaverCommand(Optional.of("C:\\ws\\it's"))),
        parse("CHECK WEAVER WORKSPACE 'C:\\ws\\it''s'"));
    assertEquals(
        said(new CheckWeaverCommand(Optional.of("/ws"))), parse("CHECK WEAVER WORKSPACE \"/ws\""));
  }

  @Test
  void buildWeaver() throws Exception {
    assertEquals(said(new BuildWeaverCommand(Scope.workspace(), false)), parse("BUILD WEAVER"));
    assertEquals(
        said(new BuildWeaverCommand(Scope.item("Sales"), false)), parse("BUILD WEAVER ITEM Sales"));
    assertEquals(
        said(new BuildWeaverCommand(Scope.table(id("Sales", "dbo", "Order")), true)),
        parse("BUILD WEAVER TABLE Sales.dbo.Order ALLOW DESTRUCTIVE"));
    assertEquals(
        said(new BuildWeaverCommand(Scope.workspace(), true)),
        parse("BUILD WEAVER ALLOW DESTRUCTIVE"));
  }

  @Test
  void planWeaver() throws Exception {
    assertEquals(
        said(new PlanWeaverCommand(Scope.workspace(), false, false)), parse("PLAN WEAVER"));
    assertEquals(
        said(new PlanWeaverCommand(Scope.item("Sales"), false, true)),
        parse("plan weaver item Sales waive stability gates"));
    assertEquals(
        said(new PlanWeaverCommand(Scope.table(id("Sales", "dbo", "Order")), true, true)),
        parse("PLAN WEAVER TABLE Sales.dbo.Order ALLOW DESTRUCTIVE WAIVE STABILITY GATES"));
  }

  @Test
  void loadWeaverTable() throws Exception {
    LoadWeaverTableCommand load =
        (LoadWeaverTableCommand) plan("LOAD WEAVER TABLE Sales.dbo.Customer");
    assertEquals(id("Sales", "dbo", "Customer"), load.table());
    assertFalse(load.waiveStabilityGates());
    assertEquals(
        said(new LoadWeaverTableCommand(id("dbo", "Customer"), true)),
        parse("LOAD WEAVER TABLE dbo.Customer WAIVE STABILITY GATES"));
  }

  @Test
  void loadWeaverItem() throws Exception {
    assertEquals(said(new LoadWeaverItemCommand("Sales", false)), parse("LOAD WEAVER ITEM Sales"));
    assertEquals(
        said(new LoadWeaverItemCommand("Sales", true)),
        parse("LOAD WEAVER ITEM Sales WAIVE STABILITY GATES"));
  }

  @Test
  void testWeaver() throws Exception {
    assertEquals(said(new TestWeaverCommand(Scope.workspace())), parse("TEST WEAVER"));
    assertEquals(said(new TestWeaverCommand(Scope.item("Sales"))), parse("TEST WEAVER ITEM Sales"));
    assertEquals(
        said(new TestWeaverCommand(Scope.table(id("dbo", "Order")))),
        parse("TEST WEAVER TABLE dbo.Order"));
  }

  @Test
  void showWeaverTables() throws Exception {
    assertEquals(said(new ShowWeaverTablesCommand(Optional.empty())), parse("SHOW WEAVER TABLES"));
    assertEquals(
        said(new ShowWeaverTablesCommand(Optional.of("Sales"))),
        parse("SHOW WEAVER TABLES IN Sales"));
  }

  @Test
  void describeWeaverTable() throws Exception {
    assertEquals(
        said(new DescribeWeaverTableCommand(id("Sales", "dbo", "Order"))),
        parse("DESCRIBE WEAVER TABLE Sales.dbo.Order"));
  }

  @Test
  void describeWeaverLoad() throws Exception {
    assertEquals(
        said(new DescribeWeaverLoadCommand(id("Sales", "dbo", "Order"))),
        parse("DESCRIBE WEAVER LOAD TABLE Sales.dbo.Order"));
  }

  @Test
  void showWeaverLoadPlan() throws Exception {
    assertEquals(
        said(new ShowWeaverLoadPlanCommand(Scope.workspace())), parse("SHOW WEAVER LOAD PLAN"));
    assertEquals(
        said(new ShowWeaverLoadPlanCommand(Scope.item("Sales"))),
        parse("show weaver load plan item Sales"));
    assertEquals(
        said(new ShowWeaverLoadPlanCommand(Scope.table(id("dbo", "Order")))),
        parse("SHOW WEAVER LOAD PLAN TABLE dbo.Order"));
  }

  private static LoadWeaverTableFromCommand from(
      ClientInput input, Optional<String> bookmark, Optional<String> context, boolean waive) {
    return new LoadWeaverTableFromCommand(
        id("Sales", "dbo", "Order"), input, bookmark, context, waive);
  }

  @Test
  void loadWeaverTableFromAClientsRead() throws Exception {
    Optional<String> none = Optional.empty();
    assertEquals(
        said(from(new ClientInput.FromViews("v1", none), none, none, false)),
        parse("LOAD WEAVER TABLE Sales.dbo.Order FROM VIEW v1"));
    assertEquals(
        said(
            from(
                new ClientInput.FromViews("v 1", Optional.of("k`2")),
                Optional.of("{\"at\":\"it's\"}"),
                Optional.of("1|a|b|-"),
                true)),
        parse(
            "LOAD WEAVER TABLE Sales.dbo.Order FROM VIEW `v 1` DELETE KEYS FROM VIEW `k``2`"
                + " BOOKMARK '{\"at\":\"it''s\"}' CONTEXT '1|a|b|-' WAIVE STABILITY GATES"));
    assertEquals(
        said(from(new ClientInput.DeleteKeysOnly("k"), none, none, false)),
        parse("load weaver table Sales.dbo.Order delete keys from view k"));
    assertEquals(
        said(from(new ClientInput.NoWork(), Optional.of("null"), Optional.of("t"), false)),
        parse("LOAD WEAVER TABLE Sales.dbo.Order WITH NO WORK BOOKMARK 'null' CONTEXT 't'"));
    assertEquals(
        said(from(new ClientInput.ReadFailed("boom\nline 2"), none, Optional.of("t"), false)),
        parse("LOAD WEAVER TABLE Sales.dbo.Order FAILED 'boom\nline 2' CONTEXT 't'"));
    // the plain statement is still the plain statement
    assertEquals(
        said(new LoadWeaverTableCommand(id("Sales", "dbo", "Order"), false)),
        parse("LOAD WEAVER TABLE Sales.dbo.Order"));
  }

  @Test
  void loadFromAClientsReadNeedsItsClausesInOrder() {
    for (String sql :
        List.of(
            "LOAD WEAVER TABLE a.b FROM VIEW",
            "LOAD WEAVER TABLE a.b FROM VIEW v CONTEXT 't' BOOKMARK 'null'",
            "LOAD WEAVER TABLE a.b FAILED ''",
            "LOAD WEAVER TABLE a.b FROM VIEW v FAILED 'x'")) {
      assertThrows(ParseException.class, () -> parse(sql), sql);
    }
  }

  @Test
  void showWeaverLoads() throws Exception {
    assertEquals(
        said(new ShowWeaverLoadsCommand(Optional.empty(), Optional.empty())),
        parse("SHOW WEAVER LOADS"));
    assertEquals(
        said(new ShowWeaverLoadsCommand(Optional.of(id("dbo", "Order")), Optional.of(5))),
        parse("SHOW WEAVER LOADS FOR dbo.Order LIMIT 5"));
    assertEquals(
        said(new ShowWeaverLoadsCommand(Optional.empty(), Optional.of(10))),
        parse("SHOW WEAVER LOADS LIMIT 10"));
  }

  @Test
  void restoreWeaverTable() throws Exception {
    assertEquals(
        said(new RestoreWeaverTableCommand(id("Sales", "dbo", "Order"), "20240101-abc")),
        parse("RESTORE WEAVER TABLE Sales.dbo.Order TO LOAD '20240101-abc'"));
  }

  @Test
  void keywordsInAnyCase() throws Exception {
    assertEquals(
        said(new LoadWeaverTableCommand(id("Sales", "dbo", "Order"), true)),
        parse("load Weaver tAbLe Sales.dbo.Order waive stability GATES"));
    assertEquals(said(new CheckWeaverCommand(Optional.empty())), parse("check weaver"));
  }

  @Test
  void identifierCaseIsKept() throws Exception {
    assertEquals(
        id("sales", "DBO", "oRDER"),
        ((LoadWeaverTableCommand) plan("LOAD WEAVER TABLE sales.DBO.oRDER")).table());
  }

  @Test
  void backquotedIdentities() throws Exception {
    assertEquals(
        said(new DescribeWeaverTableCommand(id("Sales", "Order"))),
        parse("DESCRIBE WEAVER TABLE `Sales`.`Order`"));
    assertEquals(
        id("My Item", "dbo", "we`ird.name"),
        ((LoadWeaverTableCommand) plan("LOAD WEAVER TABLE `My Item`.dbo.`we``ird.name`")).table());
  }

  @Test
  void keywordsCanBeNames() throws Exception {
    assertEquals(
        said(new LoadWeaverTableCommand(id("Load", "Table", "Weaver"), false)),
        parse("LOAD WEAVER TABLE Load.Table.Weaver"));
  }

  @Test
  void commentsWhitespaceAndSemicolon() throws Exception {
    assertEquals(
        said(new CheckWeaverCommand(Optional.empty())),
        parse("  -- check it\n /* a /* nested */ comment */\n\tCHECK /* in between */ WEAVER ;"));
    assertEquals(said(new ShowWeaverTablesCommand(Optional.empty())), parse("SHOW WEAVER TABLES;"));
  }

  @Test
  void syntaxErrorShowsPositionAndSnippet() {
    ParseException e =
        assertThrows(ParseException.class, () -> parse("LOAD WEAVER TABLE Sales.dbo.Order NOW"));
    assertEquals("PARSE_SYNTAX_ERROR", e.getCondition());
    String message = e.getMessage();
    assertTrue(message.contains("'NOW'"), message);
    assertTrue(message.contains("(line 1, pos 34)"), message);
    assertTrue(message.contains("== SQL ==\nLOAD WEAVER TABLE Sales.dbo.Order NOW\n"), message);
    assertTrue(message.contains("\n" + "-".repeat(34) + "^^^"), message);
  }

  @Test
  void syntaxErrorOnSecondLine() {
    ParseException e =
        assertThrows(
            ParseException.class, () -> parse("BUILD WEAVER\n  TABLE Sales.dbo.Order ALLOW"));
    assertTrue(e.getMessage().contains("(line 2, pos 29)"), e.getMessage());
    assertTrue(e.getMessage().contains("end of input"), e.getMessage());
  }

  @Test
  void identityNeedsTwoOrThreeParts() {
    ParseException one = assertThrows(ParseException.class, () -> parse("LOAD WEAVER TABLE Order"));
    assertTrue(one.getMessage().contains("Schema.Object or Item.Schema.Object"), one.getMessage());
    assertTrue(one.getMessage().contains("(line 1, pos 18)"), one.getMessage());
    assertThrows(ParseException.class, () -> parse("DESCRIBE WEAVER TABLE a.b.c.d"));
  }

  @Test
  void limitMustBePositive() {
    ParseException e = assertThrows(ParseException.class, () -> parse("SHOW WEAVER LOADS LIMIT 0"));
    assertTrue(e.getMessage().contains("LIMIT takes a whole number"), e.getMessage());
    assertThrows(ParseException.class, () -> parse("SHOW WEAVER LOADS LIMIT 99999999999"));
  }

  @Test
  void unknownCharacterIsASyntaxError() {
    ParseException e = assertThrows(ParseException.class, () -> parse("CHECK WEAVER WORKSPACE ~"));
    assertTrue(e.getMessage().contains("'~'"), e.getMessage());
  }

  @Test
  void everyStatementIsAWeaverStatement() throws Exception {
    for (String sql :
        List.of(
            "CHECK WEAVER",
            "BUILD WEAVER",
            "PLAN WEAVER",
            "LOAD WEAVER ITEM x",
            "TEST WEAVER",
            "SHOW WEAVER TABLES",
            "DESCRIBE WEAVER TABLE a.b",
            "SHOW WEAVER LOADS",
            "SHOW WEAVER LOAD PLAN",
            "DESCRIBE WEAVER LOAD TABLE a.b",
            "LOAD WEAVER TABLE a.b FROM VIEW v",
            "RESTORE WEAVER TABLE a.b TO LOAD 'x'")) {
      assertInstanceOf(WeaverStatement.class, plan(sql), sql);
      assertTrue(plan(sql).resolved(), sql); // the command itself, nothing left to resolve
    }
  }
}
