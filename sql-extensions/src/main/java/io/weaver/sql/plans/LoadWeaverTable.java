package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/** LOAD WEAVER TABLE t [WAIVE STABILITY GATES]: load one Table. */
public final class LoadWeaverTable extends WeaverStatement {
  private final TableIdentity table;
  private final boolean waiveStabilityGates;

  public LoadWeaverTable(TableIdentity table, boolean waiveStabilityGates) {
    this.table = Objects.requireNonNull(table, "table");
    this.waiveStabilityGates = waiveStabilityGates;
  }

  /** The Table to load. */
  public TableIdentity table() {
    return table;
  }

  /** Whether the stability gates are waived. */
  public boolean waiveStabilityGates() {
    return waiveStabilityGates;
  }

  @Override
  public String keywords() {
    return "LOAD WEAVER";
  }

  @Override
  public List<Object> fields() {
    return List.of(table, waiveStabilityGates);
  }
}
