package io.weaver.metadata.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StaticColumnsTest {

  private static Optional<List<StaticColumn>> columns(String body, SqlDialect dialect) {
    SqlBodyAnalysis analysis = SqlBodyAnalyzer.analyze(body, dialect, 1, 1);
    assertEquals(1, analysis.resultQueries().size(), body);
    return StaticColumns.of(analysis.resultQueries().get(0), dialect);
  }

  private static List<String> sparkNames(String body) {
    return names(columns(body, SqlDialect.SPARK));
  }

  private static List<String> tsqlNames(String body) {
    return names(columns(body, SqlDialect.TSQL));
  }

  private static List<String> names(Optional<List<StaticColumn>> columns) {
    assertTrue(columns.isPresent(), "expected static columns");
    return columns.get().stream().map(StaticColumn::name).toList();
  }

  @Test
  void aliasWithAsNamesTheColumnAtTheAliasToken() {
    Optional<List<StaticColumn>> columns =
        columns("select\n  'x' as status,\n  cast(0 as bigint) as n;", SqlDialect.SPARK);
    assertEquals(
        List.of(new StaticColumn("status", 2, 10), new StaticColumn("n", 3, 24)), columns.get());
  }

  @Test
  void aliasWithoutAs() {
    assertEquals(List.of("c", "total", "k"), sparkNames("select a + b c, sum(x) total, 1 k;"));
  }

  @Test
  void bareAndQualifiedColumnReferences() {
    assertEquals(List.of("a", "b", "c"), sparkNames("select a, t.b, db.t.c from t;"));
  }

  @Test
  void quotedNamesComeBackUnquoted() {
    assertEquals(List.of("a`b", "x y"), sparkNames("select `a``b`, 1 as `x y`;"));
    assertEquals(
        List.of("a]b", "status", "q\"r"), tsqlNames("select [a]]b], [status], \"q\"\"r\""));
  }

  @Test
  void tsqlNameEqualsExpression() {
    Optional<List<StaticColumn>> columns =
        columns("select [Status] = upper(s), total = a + b from t", SqlDialect.TSQL);
    assertEquals(
        List.of(new StaticColumn("Status", 1, 8), new StaticColumn("total", 1, 29)), columns.get());
  }

  @Test
  void tsqlStringAlias() {
    assertEquals(List.of("it's"), tsqlNames("select 1 as 'it''s'"));
  }

  @Test
  void sparkEqualsIsAComparisonNotAnAlias() {
    assertTrue(columns("select a = b from t;", SqlDialect.SPARK).isEmpty());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "select * from t;",
        "select t.*, a from t;",
        "select a, * from t;",
        "select count(*) from t;",
        "select 1;",
        "select 'x';",
        "select a + b from t;",
        "select upper(a) from t;",
        "select case when a then 1 else 2 end from t;",
        "select a is null from t;",
        "select null;",
        "select current_date;",
        "select interval 1 day;",
        "select a::int from t;",
        "select -a from t;",
        "values (1, 2);",
        "table t;",
        "from t select a;",
        "select explode(m) as (k, v) from t;",
      })
  void unknownShapesAreEmpty(String body) {
    assertTrue(columns(body, SqlDialect.SPARK).isEmpty(), body);
  }

  @Test
  void caseExpressionWithAlias() {
    assertEquals(
        List.of("k", "m"),
        sparkNames("select case when a then 1 else 2 end as k, case b when 1 then 2 end m;"));
  }

  @Test
  void unionTakesNamesFromTheFirstBranch() {
    assertEquals(
        List.of("a", "b"),
        sparkNames("select x as a, y as b from t union all select c, d from u;"));
    assertEquals(List.of("a"), sparkNames("(select x as a from t) union (select y from u);"));
  }

  @Test
  void cteUsesTheMainSelect() {
    assertEquals(
        List.of("id", "label"),
        sparkNames("with c as (select 1 as z, 2 as w) select z as id, w as label from c;"));
    assertEquals(List.of("a"), tsqlNames("with c (a) as (select 1) select c.a from c where a > 0"));
  }

  @Test
  void listStopsAtClauses() {
    assertEquals(
        List.of("a", "n"),
        sparkNames(
            "select a, count(1) as n from t where a > 0 group by a having n > 1 order by a;"));
    assertEquals(List.of("a"), sparkNames("select a from t limit 5;"));
    assertEquals(List.of("a"), sparkNames("select 1 as a sort by a;"));
  }

  @Test
  void unreservedClauseWordsCanBeNames() {
    assertEquals(
        List.of("start", "limit", "sort"),
        sparkNames("select window.start, t.limit, x as sort from t;"));
  }

  @Test
  void isDistinctFromStaysInTheItem() {
    assertEquals(List.of("same"), sparkNames("select a is distinct from b as same from t;"));
  }

  @Test
  void distinctAndTopAreSkipped() {
    assertEquals(List.of("a", "b"), sparkNames("select distinct a, b from t;"));
    assertEquals(List.of("a"), tsqlNames("select top (10) percent with ties a from t order by a"));
    assertEquals(List.of("a", "b"), tsqlNames("select distinct top 5 a, t.b from t"));
  }

  @Test
  void hintsAreIgnored() {
    assertEquals(List.of("a"), sparkNames("select /*+ broadcast(t) */ a from t;"));
  }

  @Test
  void forXmlChangesTheShape() {
    assertTrue(columns("select a from t for xml path('r')", SqlDialect.TSQL).isEmpty());
  }

  @Test
  void tsqlUnaliasedVariableIsUnknown() {
    assertTrue(columns("select @v from t", SqlDialect.TSQL).isEmpty());
  }

  @Test
  void duplicatesAreReturnedForTheCallerToJudge() {
    assertEquals(List.of("a", "a"), sparkNames("select a, b as a from t;"));
  }

  @Test
  void windowFunctionAlias() {
    assertEquals(
        List.of("rn"),
        sparkNames("select row_number() over (partition by a order by b) as rn from t;"));
  }

  @Test
  void aliasAfterSubscript() {
    assertEquals(List.of("v", "w"), sparkNames("select m['k'] v, a[0] as w from t;"));
  }

  @Test
  void collationIsNotAnAlias() {
    assertTrue(columns("select a collate Latin1_General_CI_AS from t", SqlDialect.TSQL).isEmpty());
    assertEquals(List.of("b"), tsqlNames("select a collate Latin1_General_CI_AS as b from t"));
  }

  @Test
  void ifBodyResultHasStaticColumns() {
    SqlBodyAnalysis analysis =
        SqlBodyAnalyzer.analyze("if 1 = 1 begin select x as a from t end", SqlDialect.TSQL, 3, 1);
    assertEquals(
        List.of(new StaticColumn("a", 3, 28)),
        StaticColumns.of(analysis.resultQueries().get(0), SqlDialect.TSQL).get());
  }

  @Test
  void nonQueryStatementHasNoColumns() {
    SqlStatement set =
        SqlBodyAnalyzer.analyze("set x = 1;", SqlDialect.SPARK, 1, 1).statements().get(0);
    assertTrue(StaticColumns.of(set, SqlDialect.SPARK).isEmpty());
  }
}
