package io.weaver.metadata.sql;

/** The SQL dialect of a Table body: Spark SQL for Lakehouse items, T-SQL for Warehouse items. */
public enum SqlDialect {
  SPARK,
  TSQL
}
