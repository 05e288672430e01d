package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/**
 * DESCRIBE WEAVER LOAD TABLE t: what a load of the Python Table t starting now hands its {@code
 * read()}, for a client that runs it itself (Spark Connect).
 */
public final class DescribeWeaverLoad extends WeaverStatement {
  private final TableIdentity table;

  public DescribeWeaverLoad(TableIdentity table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  /** The Table whose load is described. */
  public TableIdentity table() {
    return table;
  }

  @Override
  public String keywords() {
    return "DESCRIBE WEAVER LOAD";
  }

  @Override
  public List<Object> fields() {
    return List.of(table);
  }
}
