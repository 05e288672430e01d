package io.weaver.metadata.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.metadata.sql.SqlStatement.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SparkBodyAnalysisTest {

  private static SqlBodyAnalysis analyze(String body) {
    return SqlBodyAnalyzer.analyze(body, SqlDialect.SPARK, 1, 1);
  }

  private static List<Kind> kinds(SqlBodyAnalysis analysis) {
    return analysis.statements().stream().map(SqlStatement::kind).toList();
  }

  @Test
  void everyStatementEndingWithSemicolonIsTerminated() {
    SqlBodyAnalysis analysis = analyze("set x = 1;\nselect 1;\n");
    assertEquals(2, analysis.statements().size());
    assertTrue(analysis.statements().stream().allMatch(SqlStatement::terminated));
    assertTrue(analysis.syntaxError().isEmpty());
    assertTrue(analysis.dynamicSqlAt().isEmpty());
  }

  @Test
  void missingFinalSemicolonIsReportedOnTheLastStatement() {
    SqlBodyAnalysis analysis = analyze("set x = 1;\nselect 1\n-- trailing comment\n");
    SqlStatement last = analysis.statements().get(1);
    assertFalse(last.terminated());
    assertEquals(2, last.line());
    assertEquals(1, last.column());
  }

  @Test
  void emptyStatementsAreIgnored() {
    SqlBodyAnalysis analysis = analyze(";; select 1;; ;\n;");
    assertEquals(1, analysis.statements().size());
    assertTrue(analysis.statements().get(0).terminated());
  }

  @Test
  void semicolonsInsideLiteralsAndCommentsDoNotSplit() {
    SqlBodyAnalysis analysis =
        analyze("select ';' as a, `b;c` /* ; */ -- ;\n, \"d;\" as e;\nselect 2;");
    assertEquals(2, analysis.statements().size());
    assertEquals(2, analysis.resultQueries().size());
  }

  @Test
  void terminatingSemicolonIsNotAToken() {
    SqlStatement statement = analyze("select 1;").statements().get(0);
    assertEquals(2, statement.tokens().size());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "select 1;",
        "SELECT a FROM t;",
        "with c as (select 1 as a) select a from c;",
        "with c (a) as (select 1), d as (select 2) select * from c, d;",
        "with c (select 1 as a) select a from c;",
        "values (1, 2), (3, 4);",
        "table t;",
        "from t select a;",
        "from (select 1 as a) s select a;",
        "(select a from t) union (select a from u);",
        "((select 1));",
        "with c as (select 1) (select * from c);",
        "with c as (select 1) from c select *;",
      })
  void queriesAreResultQueries(String body) {
    SqlBodyAnalysis analysis = analyze(body);
    assertEquals(List.of(Kind.RESULT_QUERY), kinds(analysis), body);
    assertEquals(analysis.statements(), analysis.resultQueries());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "set spark.sql.ansi.enabled = true;",
        "create or replace temporary view v as select 1;",
        "create temp view v as select 1;",
        "create or replace global temp view v as select 1;",
        "cache table c as select 1;",
        "use db;",
        "declare x int default 1;",
        "insert into t select 1;",
        "with c as (select 1) insert into t select * from c;",
        "from t insert into u select a insert into v select b;",
        "show tables;",
        "explain select 1;",
        "drop view if exists v;",
      })
  void setupAndWritesAreNotResultQueries(String body) {
    assertEquals(List.of(Kind.NON_RESULT), kinds(analyze(body)), body);
  }

  @Test
  void setupBeforeQueryGivesOneResult() {
    SqlBodyAnalysis analysis =
        analyze(
            "set spark.sql.shuffle.partitions = 4;\n"
                + "create or replace temp view v as select a from t;\n"
                + "select a from v;\n");
    assertEquals(List.of(Kind.NON_RESULT, Kind.NON_RESULT, Kind.RESULT_QUERY), kinds(analysis));
    assertEquals(1, analysis.resultQueries().size());
    assertEquals(3, analysis.resultQueries().get(0).line());
  }

  @Test
  void twoResultQueriesInOrder() {
    SqlBodyAnalysis analysis = analyze("select a from t;\nselect k from deleted;");
    assertEquals(2, analysis.resultQueries().size());
    assertEquals("a", analysis.resultQueries().get(0).tokens().get(1).text());
    assertEquals("k", analysis.resultQueries().get(1).tokens().get(1).text());
  }

  @Test
  void castsAndParameterMarkersDoNotDisturbSplitting() {
    SqlBodyAnalysis analysis =
        analyze("select a::int as a from t where ts <= :load_timestamp;\nselect 2;");
    assertEquals(2, analysis.resultQueries().size());
  }

  @Test
  void statementPositionsAreFilePositions() {
    SqlBodyAnalysis analysis =
        SqlBodyAnalyzer.analyze("\n/* note */ select 1;\n  select 2;", SqlDialect.SPARK, 9, 3);
    assertEquals(10, analysis.statements().get(0).line());
    assertEquals(12, analysis.statements().get(0).column());
    assertEquals(11, analysis.statements().get(1).line());
    assertEquals(3, analysis.statements().get(1).column());
  }

  @Test
  void syntaxErrorKeepsCompleteStatementsBeforeIt() {
    SqlBodyAnalysis analysis = analyze("set a = 1;\nselect 1;\nselect 'oops");
    assertTrue(analysis.syntaxError().isPresent());
    assertEquals(3, analysis.syntaxError().get().line());
    assertEquals(8, analysis.syntaxError().get().column());
    assertEquals(2, analysis.statements().size());
    assertEquals(1, analysis.resultQueries().size());
  }

  @Test
  void syntaxErrorInFirstStatementLeavesNoStatements() {
    SqlBodyAnalysis analysis = analyze("select 1 /* never closed;");
    assertTrue(analysis.syntaxError().isPresent());
    assertTrue(analysis.statements().isEmpty());
  }

  @Test
  void emptyBodyHasNoStatements() {
    SqlBodyAnalysis analysis = analyze("  -- nothing here\n/* at all */\n");
    assertTrue(analysis.statements().isEmpty());
    assertTrue(analysis.syntaxError().isEmpty());
  }
}
