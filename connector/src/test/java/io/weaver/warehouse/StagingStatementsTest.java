package io.weaver.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class StagingStatementsTest {

  @Test
  void aPlainQueryBecomesTheOnlyCommonTableExpression() {
    assertEquals(
        "WITH [__weaver_result] AS (\nselect b, a from s\n)\n"
            + "INSERT INTO #t ([a], [b])\nSELECT [a], [b] FROM [__weaver_result];",
        StagingStatements.insertInto("select b, a from s", "#t", List.of("a", "b")));
  }

  @Test
  void aQueryWithItsOwnCommonTableExpressionsKeepsThemAndAppendsOurs() {
    String query = "with x (k) as (select 1), y as (select (k) from x) select k as a from y";
    assertEquals(
        "with x (k) as (select 1), y as (select (k) from x),\n[__weaver_result] AS (\n"
            + "select k as a from y\n)\nINSERT INTO #t ([a])\nSELECT [a] FROM [__weaver_result];",
        StagingStatements.insertInto(query, "#t", List.of("a")));
  }

  @Test
  void namedParametersBecomeTheProcedureVariablesButNotInsideStringsOrComments() {
    assertEquals(
        "select ':load_timestamp' as t /* :last_load_timestamp */ where c > @last_load_timestamp"
            + " and d < @load_timestamp",
        StagingStatements.bind(
            "select ':load_timestamp' as t /* :last_load_timestamp */ where c >"
                + " :last_load_timestamp and d < :load_timestamp"));
  }

  @Test
  void columnNamesAreQuoted() {
    assertEquals(
        "WITH [__weaver_result] AS (\nselect 1 as [a]]b]\n)\n"
            + "INSERT INTO #t ([a]]b])\nSELECT [a]]b] FROM [__weaver_result];",
        StagingStatements.insertInto("select 1 as [a]]b]", "#t", List.of("a]b")));
  }

  @Test
  void anUnreadableWithClauseIsAClearError() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StagingStatements.insertInto("with x as select 1", "#t", List.of("a")));
    assertEquals(
        "a result query's WITH clause could not be read; write it as WITH name AS (…)[, …] SELECT …",
        e.getMessage());
  }
}
