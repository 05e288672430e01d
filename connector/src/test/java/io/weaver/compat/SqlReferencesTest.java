package io.weaver.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Spark's parser without a session reads every statement kind a Spark SQL Table may hold. */
class SqlReferencesTest {

  @Test
  void parsingStartsNoSession() {
    // Surefire shares the JVM: only meaningful when no earlier test class started Spark.
    assumeFalse(
        SparkSession.getActiveSession().isDefined() || SparkSession.getDefaultSession().isDefined(),
        "a session already runs");
    SqlReferences.of("select * from A.Two");
    assertFalse(SparkSession.getActiveSession().isDefined());
    assertFalse(SparkSession.getDefaultSession().isDefined());
  }

  @Test
  void queryWithJoinCteAndSubquery() {
    assertEquals(
        List.of(
            List.of("c"), List.of("A", "Four"), List.of("A", "Two"), List.of("M", "B", "Three")),
        SqlReferences.of(
            "with c as (select * from A.Two join M.B.Three using (k))"
                + " select * from c where k in (select k from A.Four)"));
  }

  @Test
  void createTempView() {
    assertEquals(
        List.of(List.of("A", "Two")),
        SqlReferences.of("create or replace temp view v as select * from A.Two"));
    assertEquals(
        List.of(List.of("A", "Two")),
        SqlReferences.of("create temporary view v as select k from A.Two"));
  }

  @Test
  void setReadsNothing() {
    assertEquals(List.of(), SqlReferences.of("set spark.sql.ansi.enabled = true"));
    assertEquals(List.of(), SqlReferences.of("SET TIME ZONE 'UTC'"));
  }

  @Test
  void cacheTableAndPathSources() {
    assertEquals(
        List.of(List.of("parquet", "/data/x"), List.of("spark_catalog", "db", "t")),
        SqlReferences.of(
            "select * from parquet.`/data/x` union all select * from spark_catalog.db.t"));
    assertEquals(
        List.of(List.of("A", "Two")), SqlReferences.of("cache table c as select * from A.Two"));
  }

  @Test
  void unparseableStatementIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> SqlReferences.of("selec * frm"));
  }
}
