package io.weaver.warehouse;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything Build installs for a Warehouse Table, in the order it runs: schema, table, key
 * constraints and, unless {@code Has load procedure: false}, the row history a restore reads, the
 * load procedure and the restore procedure. The item's catalogue ({@link CatalogueDdl}) must exist
 * first.
 */
public final class WarehouseScript {
  private WarehouseScript() {}

  public static List<Batch> table(WarehouseTable t, DmlForm form) {
    List<Batch> batches = new ArrayList<>(WarehouseDdl.table(t));
    if (t.declaration().hasLoadProcedure()) {
      batches.add(UndoTable.create(t));
      batches.add(LoadProcedure.of(t, form));
      batches.add(RestoreProcedure.of(t));
    }
    return batches;
  }
}
