package io.weaver.load;

import io.weaver.load.records.LoadResult;
import io.weaver.metadata.TableDeclaration;
import java.util.Optional;

/**
 * How a load reaches a Warehouse item's T-SQL endpoint. Implemented above this layer ({@code
 * io.weaver.warehouse}) and handed to {@link LoadRunner#withWarehouse} by the entry point.
 */
public interface WarehouseLoad {
  /** Whether the Table's item has an endpoint (a plan says so instead of predicting). */
  boolean configured(TableDeclaration table);

  /** The load's result; empty when the item has no endpoint (the load is then skipped). */
  Optional<LoadResult> load(TableDeclaration table, boolean waiveGates, Optional<String> loadId);
}
