package io.weaver.metadata.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.metadata.sql.SqlStatement.Kind;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TsqlBodyAnalysisTest {

  private static SqlBodyAnalysis analyze(String body) {
    return SqlBodyAnalyzer.analyze(body, SqlDialect.TSQL, 1, 1);
  }

  private static List<Kind> kinds(String body) {
    return analyze(body).statements().stream().map(SqlStatement::kind).toList();
  }

  /** Each statement's text, tokens joined by single spaces, for readable assertions. */
  private static List<String> statements(String body) {
    return analyze(body).statements().stream()
        .map(s -> s.tokens().stream().map(SqlToken::text).collect(Collectors.joining(" ")))
        .toList();
  }

  private static int resultCount(String body) {
    return analyze(body).resultQueries().size();
  }

  @Test
  void statementsWithoutSemicolonsSplitAtKeywords() {
    String body = "declare @x int set @x = 1 select a from t select b from u";
    assertEquals(
        List.of("declare @x int", "set @x = 1", "select a from t", "select b from u"),
        statements(body));
    assertEquals(2, resultCount(body));
  }

  @Test
  void semicolonsStillSplitAndMarkTermination() {
    SqlBodyAnalysis analysis = analyze("select 1; select 2");
    assertTrue(analysis.statements().get(0).terminated());
    assertFalse(analysis.statements().get(1).terminated());
    assertEquals(2, analysis.resultQueries().size());
  }

  @Test
  void selectIntoIsNotAResult() {
    String body = "select a, b into #work from t select a from #work";
    assertEquals(List.of(Kind.NON_RESULT, Kind.RESULT_QUERY), kinds(body));
  }

  @Test
  void intoInsideASubqueryDoesNotMakeItSelectInto() {
    assertEquals(List.of(Kind.RESULT_QUERY), kinds("select a from (select 1 as a) s"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "select @v = max(a) from t",
        "select @v = 1, @w = 2",
        "select top 1 @v = a from t order by a",
        "select @n += 1 from t",
      })
  void variableAssignmentIsNotAResult(String body) {
    assertEquals(List.of(Kind.NON_RESULT), kinds(body), body);
  }

  @Test
  void selectingAVariableReturnsARow() {
    assertEquals(List.of(Kind.RESULT_QUERY), kinds("select @v as v, @w"));
  }

  @Test
  void insertSelectIsOneNonResultStatement() {
    String body = "insert into #t (a, b) select a, b from s where a > 1 select * from #t";
    assertEquals(
        List.of("insert into #t ( a , b ) select a , b from s where a > 1", "select * from #t"),
        statements(body));
    assertEquals(List.of(Kind.NON_RESULT, Kind.RESULT_QUERY), kinds(body));
  }

  @Test
  void insertValuesThenSelectSplits() {
    String body = "insert into #t values (1) select a from #t";
    assertEquals(List.of("insert into #t values ( 1 )", "select a from #t"), statements(body));
  }

  @Test
  void insertExecIsOneStatement() {
    String body = "insert into #t exec dbo.load_rows 1 select a from #t";
    assertEquals(
        List.of("insert into #t exec dbo . load_rows 1", "select a from #t"), statements(body));
  }

  @Test
  void updateSetIsOneStatementAndALaterSetSplits() {
    String body = "update t set a = 1, b = 2 where c = 3 set @x = 1 select a from t";
    assertEquals(
        List.of("update t set a = 1 , b = 2 where c = 3", "set @x = 1", "select a from t"),
        statements(body));
  }

  @Test
  void mergeActionsStayInTheMerge() {
    String body =
        "merge into t using (select a, b from s) as src on t.a = src.a\n"
            + "when matched then update set b = src.b\n"
            + "when not matched then insert (a, b) values (src.a, src.b)\n"
            + "when not matched by source then delete;\n"
            + "select a from t";
    List<String> statements = statements(body);
    assertEquals(2, statements.size(), statements.toString());
    assertEquals(List.of(Kind.NON_RESULT, Kind.RESULT_QUERY), kinds(body));
  }

  @Test
  void unionBranchesStayInOneResult() {
    String body = "select a from t union all select a from u except select a from v";
    assertEquals(1, statements(body).size());
    assertEquals(1, resultCount(body));
  }

  @Test
  void cteFollowedByMainSelectIsOneResult() {
    String body = "with c (a) as (select 1), d as (select a from c) select a from d select 2";
    assertEquals(
        List.of(Kind.RESULT_QUERY, Kind.RESULT_QUERY), kinds(body), statements(body).toString());
    assertEquals(2, statements(body).size());
  }

  @Test
  void cteFeedingAnInsertIsNotAResult() {
    String body = "with c as (select 1 as a) insert into t select a from c";
    assertEquals(List.of(Kind.NON_RESULT), kinds(body));
  }

  @Test
  void cteFeedingAnUpdateOrDeleteIsNotAResult() {
    assertEquals(List.of(Kind.NON_RESULT), kinds("with c as (select a from t) update c set a = 2"));
    assertEquals(List.of(Kind.NON_RESULT), kinds("with c as (select a from t) delete from c"));
  }

  @Test
  void tableHintsAndWithTiesDoNotStartStatements() {
    String body = "select top 5 with ties a from t with (nolock) order by a";
    assertEquals(1, statements(body).size());
    assertEquals(1, resultCount(body));
  }

  @Test
  void caseEndDoesNotEndAStatement() {
    String body =
        "select case when a = 1 then 'x' else 'y' end as k from t\n"
            + "select case b when 1 then 2 end as m from t";
    assertEquals(2, statements(body).size());
    assertEquals(2, resultCount(body));
  }

  @Test
  void selectInsideIfAndBlocksIsAResult() {
    String body =
        "if @mode = 1\nbegin\n  select a from t\nend\nelse\nbegin\n  select b as a from u\nend";
    assertEquals(
        List.of(
            "if @mode = 1",
            "begin",
            "select a from t",
            "end",
            "else",
            "begin",
            "select b as a from u",
            "end"),
        statements(body));
    assertEquals(2, resultCount(body));
  }

  @Test
  void ifExistsSubqueryIsPartOfTheCondition() {
    String body = "if exists (select 1 from t) select a from t";
    assertEquals(List.of("if exists ( select 1 from t )", "select a from t"), statements(body));
    assertEquals(1, resultCount(body));
  }

  @Test
  void tryCatchAndTransactionsAreControlStatements() {
    String body =
        "begin try begin tran insert into t values (1) commit end try\n"
            + "begin catch rollback; throw; end catch\n"
            + "select a from t";
    assertEquals(
        List.of(
            "begin try",
            "begin tran",
            "insert into t values ( 1 )",
            "commit",
            "end try",
            "begin catch",
            "rollback",
            "throw",
            "end catch",
            "select a from t"),
        statements(body));
    assertEquals(1, resultCount(body));
  }

  @Test
  void createViewAsSelectIsOneNonResultStatement() {
    String body = "create view v as select a from t select a from v";
    assertEquals(List.of("create view v as select a from t", "select a from v"), statements(body));
    assertEquals(List.of(Kind.NON_RESULT, Kind.RESULT_QUERY), kinds(body));
  }

  @Test
  void cursorDeclarationKeepsItsSelect() {
    String body = "declare c cursor for select a from t open c";
    assertEquals(List.of("declare c cursor for select a from t", "open c"), statements(body));
    assertEquals(0, resultCount(body));
  }

  @Test
  void offsetFetchStaysInTheSelect() {
    String body = "select a from t order by a offset 0 rows fetch next 5 rows only";
    assertEquals(1, statements(body).size());
  }

  @Test
  void parenthesisedQueryIsAResult() {
    assertEquals(List.of(Kind.RESULT_QUERY), kinds("(select a from t) union (select a from u)"));
  }

  @Test
  void goAloneOnItsLineIsABatchSeparator() {
    SqlBodyAnalysis analysis = analyze("select 1 as a\nGO\nselect 2 as a\n  go 3\n");
    assertEquals(
        List.of(Kind.RESULT_QUERY, Kind.GO_BATCH, Kind.RESULT_QUERY, Kind.GO_BATCH),
        analysis.statements().stream().map(SqlStatement::kind).toList());
    SqlStatement second = analysis.statements().get(3);
    assertEquals(4, second.line());
    assertEquals(3, second.column());
    assertEquals(2, second.tokens().size());
  }

  @Test
  void goAsAnAliasOrInsideALineIsAWord() {
    assertEquals(List.of(Kind.RESULT_QUERY), kinds("select 1 as go"));
    assertEquals(List.of(Kind.RESULT_QUERY), kinds("select 1 as\ngo from t"));
    assertEquals(List.of(Kind.RESULT_QUERY), kinds("select a from t go"));
  }

  @Test
  void goAfterAMultiLineStringEndingOnItsLineIsAWord() {
    assertEquals(1, statements("select 'a\nb' go\n").size());
  }

  @Test
  void execOfAProcedureIsNotAResultNorDynamic() {
    SqlBodyAnalysis analysis = analyze("exec dbo.refresh @day = 1 select a from t");
    assertEquals(
        List.of(Kind.NON_RESULT, Kind.RESULT_QUERY),
        analysis.statements().stream().map(SqlStatement::kind).toList());
    assertTrue(analysis.dynamicSqlAt().isEmpty());
  }

  @Test
  void dynamicSqlFormsAreFound() {
    String body =
        "exec ('select 1')\n"
            + "execute sp_executesql N'select 2'\n"
            + "exec @sql\n"
            + "exec sys.sp_executesql @sql\n"
            + "exec @rc = sp_executesql @sql\n"
            + "sp_executesql @sql\n"
            + "exec dbo.proc\n"
            + "execute (@sql)";
    List<SqlToken> found = analyze(body).dynamicSqlAt();
    assertEquals(
        List.of(
            "exec@1",
            "execute@2",
            "exec@3",
            "exec@4",
            "sp_executesql@5",
            "sp_executesql@6",
            "execute@8"),
        found.stream().map(t -> t.text() + "@" + t.line()).toList());
  }

  @Test
  void dynamicSqlIsNotReportedForSpark() {
    assertTrue(
        SqlBodyAnalyzer.analyze("select 'exec (x)' as sp_executesql;", SqlDialect.SPARK, 1, 1)
            .dynamicSqlAt()
            .isEmpty());
  }

  @Test
  void dynamicSqlInsideStringsIsIgnored() {
    assertTrue(analyze("select 'exec (@x)' as a, [sp_executesql] as b").dynamicSqlAt().size() == 1);
    assertTrue(analyze("select 'exec (@x)' as a").dynamicSqlAt().isEmpty());
  }

  @Test
  void keywordsInsideQuotedIdentifiersDoNotSplit() {
    String body = "select [select], \"from\" as [update;] from t";
    assertEquals(1, statements(body).size());
  }

  @Test
  void syntaxErrorKeepsStatementsBeforeTheInterruptedOne() {
    SqlBodyAnalysis analysis = analyze("declare @x int\nselect a from t\nselect 'oops");
    assertTrue(analysis.syntaxError().isPresent());
    assertEquals(3, analysis.syntaxError().get().line());
    assertEquals(2, analysis.statements().size());
    assertEquals(1, analysis.resultQueries().size());
  }

  @Test
  void qualifiedNamesUsingKeywordsDoNotSplit() {
    assertEquals(1, statements("select t.[end], s.status from t, s").size());
  }

  @Test
  void dropIfExistsIsOneStatement() {
    String body = "drop table if exists #t select 1 as a into #t";
    assertEquals(List.of("drop table if exists #t", "select 1 as a into #t"), statements(body));
    assertEquals(0, resultCount(body));
  }

  @Test
  void declareTableVariableThenInsertSelect() {
    String body =
        "declare @t table (a int, b int)\n"
            + "insert @t select a, b from s\n"
            + "insert into @t default values\n"
            + "select a, b from @t";
    assertEquals(
        List.of(Kind.NON_RESULT, Kind.NON_RESULT, Kind.NON_RESULT, Kind.RESULT_QUERY), kinds(body));
  }

  @Test
  void ctasKeepsItsSelect() {
    String body =
        "create table dbo.w with (distribution = round_robin) as select a from t select 1 as x";
    assertEquals(List.of(Kind.NON_RESULT, Kind.RESULT_QUERY), kinds(body));
  }

  @Test
  void cteSelectIntoIsNotAResult() {
    assertEquals(
        List.of(Kind.NON_RESULT), kinds("with c as (select 1 as a) select a into #t from c"));
  }

  @Test
  void executeAsIsNotDynamicSql() {
    assertTrue(analyze("execute as user = 'loader' select 1 as a revert").dynamicSqlAt().isEmpty());
  }
}
