package io.weaver.install;

import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import java.util.List;

/**
 * How Build reaches a Warehouse item's T-SQL endpoint. Implemented above this layer ({@code
 * io.weaver.warehouse}) and handed to {@link BuildRunner#withWarehouse} by the entry point; a
 * runner without one reports Warehouse Tables skipped.
 */
@FunctionalInterface
public interface WarehouseBuild {
  /** Builds (or, when {@code write} is false, plans) one Warehouse Table. */
  BuildOutcome build(TableDeclaration table, List<WorkspaceDependencies.Edge> edges, boolean write);
}
