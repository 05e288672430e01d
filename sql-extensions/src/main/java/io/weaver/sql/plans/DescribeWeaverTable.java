package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/** DESCRIBE WEAVER TABLE t: one Table's declaration and built shape. */
public final class DescribeWeaverTable extends WeaverStatement {
  private final TableIdentity table;

  public DescribeWeaverTable(TableIdentity table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  /** The Table to describe. */
  public TableIdentity table() {
    return table;
  }

  @Override
  public String keywords() {
    return "DESCRIBE WEAVER TABLE";
  }

  @Override
  public List<Object> fields() {
    return List.of(table);
  }
}
