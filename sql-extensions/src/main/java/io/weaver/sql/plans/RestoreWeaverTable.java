package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/** RESTORE WEAVER TABLE t TO LOAD 'id': return a Table to the state one load left it in. */
public final class RestoreWeaverTable extends WeaverStatement {
  private final TableIdentity table;
  private final String loadId;

  public RestoreWeaverTable(TableIdentity table, String loadId) {
    this.table = Objects.requireNonNull(table, "table");
    this.loadId = Objects.requireNonNull(loadId, "loadId");
  }

  /** The Table to restore. */
  public TableIdentity table() {
    return table;
  }

  /** The load whose resulting state is restored. */
  public String loadId() {
    return loadId;
  }

  @Override
  public String keywords() {
    return "RESTORE WEAVER TABLE";
  }

  @Override
  public List<Object> fields() {
    return List.of(table, loadId);
  }
}
