package io.weaver.warehouse;

import io.weaver.metadata.ManagedColumns;
import io.weaver.workspace.Target;
import java.util.List;

/** The spaced managed column names of a Warehouse table, quoted, and the live sentinel. */
final class WarehouseNames {
  private static final List<String> MANAGED = ManagedColumns.names(Target.WAREHOUSE);

  static final String INSERT_TIME = TsqlNames.quote(MANAGED.get(0));
  static final String UPDATE_TIME = TsqlNames.quote(MANAGED.get(1));
  static final String DELETE_TIME = TsqlNames.quote(MANAGED.get(2));
  static final String SIGNATURE = TsqlNames.quote(MANAGED.get(3));

  /** {@code 9999-12-31 00:00:00} UTC: a live row's delete time (the contract's live sentinel). */
  static final String LIVE_SENTINEL = "CAST('9999-12-31T00:00:00' AS datetime2(6))";

  /** The type of every audit time: UTC, microseconds. */
  static final String AUDIT_TYPE = "datetime2(6)";

  private WarehouseNames() {}
}
