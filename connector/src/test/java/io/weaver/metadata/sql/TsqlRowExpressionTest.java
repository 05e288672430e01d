package io.weaver.metadata.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link TsqlRowExpression} reads from a Warehouse expectation's T-SQL rule. */
class TsqlRowExpressionTest {

  private static List<String> columns(String rule) {
    return TsqlRowExpression.of(rule).columns().stream()
        .map(r -> String.join(".", r.parts()))
        .toList();
  }

  @Test
  void keywordsLiteralsAndFunctionsAreNotColumns() {
    assertEquals(
        List.of("status", "weight_kg", "name", "shipped_at"),
        columns(
            "status is not null and weight_kg between 0 and 10 or name not like N'x%' escape '!'"
                + " and coalesce(shipped_at, current_timestamp) is not null"));
  }

  @Test
  void variablesAreNeitherColumnsNorRowLocal() {
    TsqlRowExpression e =
        TsqlRowExpression.of("a > @load_timestamp or @@rowcount > @weaver_staged");
    assertEquals(List.of("a"), columns("a > @load_timestamp or @@rowcount > @weaver_staged"));
    assertEquals(
        List.of(
            "'@load_timestamp' at character 5 of the rule",
            "'@@rowcount' at character 24 of the rule",
            "'@weaver_staged' at character 37 of the rule"),
        e.variables());
    assertTrue(!e.rowLocal());
  }

  @Test
  void bracketedAndQuotedIdentifiersAreColumnsEvenWhenTheySpellKeywords() {
    assertEquals(List.of("user", "Row signature"), columns("[user] = \"Row signature\""));
  }

  @Test
  void typesDatePartsCollationsAndTimeZonesAreSkipped() {
    assertEquals(
        List.of("a", "b", "c", "d", "e"),
        columns(
            "try_cast(a as decimal(10, 2)) > 0 and cast(b as varchar(max)) <> ''"
                + " and convert(varchar(20), c, 120) <> '' and dateadd(day, 1, d) > getdate()"
                + " and e collate Latin1_General_100_CI_AS = 'x'"
                + " and sysutcdatetime() at time zone 'UTC' is not null"));
  }

  @Test
  void castKeepsReadingItsOwnExpression() {
    assertEquals(
        List.of("a", "b"),
        columns("cast(a + coalesce(b, 0) as int) > 0 and case when 1 = 1 then 1 end = 1"));
  }

  @Test
  void qualifiedNamesAreOneReference() {
    assertEquals(List.of("s.status"), columns("s.status is null"));
    assertEquals(List.of("x"), columns("dbo.f(x) = 1"));
  }

  @Test
  void aggregatesWindowsSubqueriesAndSeparators() {
    TsqlRowExpression e =
        TsqlRowExpression.of(
            "count(a) > 1 and row_number() over (order by a) = 1"
                + " and a in (select b from t); go");
    assertEquals(List.of("count"), e.aggregates());
    assertEquals(List.of("row_number(…) OVER at character 18 of the rule"), e.windows());
    assertEquals(List.of("IN (SELECT …) at character 63 of the rule"), e.subqueries());
    assertEquals(
        List.of("';' at character 79 of the rule", "'go' at character 81 of the rule"),
        e.separators());
    assertTrue(!e.rowLocal());
  }

  @Test
  void unbalancedParenthesesAndUnterminatedStrings() {
    assertEquals(
        List.of("'(' at character 1 of the rule is not closed"),
        TsqlRowExpression.of("(a > 0").problems());
    assertEquals(
        List.of("')' at character 6 of the rule closes no '('"),
        TsqlRowExpression.of("a > 0)").problems());
    assertEquals(1, TsqlRowExpression.of("a = 'x").problems().size());
    assertEquals(List.of("the rule is empty"), TsqlRowExpression.of(" -- nothing").problems());
    assertTrue(TsqlRowExpression.of("a > 0 -- positive").rowLocal());
  }
}
