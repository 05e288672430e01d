package io.weaver.load;

import io.delta.tables.DeltaTable;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.TableDeclaration;
import io.weaver.workspace.Target;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/** The first step of a load: whether this Table can be loaded here at all. */
final class LoadPreconditions {
  /** Why not: the load's status ({@code skipped} or {@code failed}) and what to do. */
  record Unmet(LoadStatus status, String message) {}

  private LoadPreconditions() {}

  static Optional<Unmet> unmet(SparkSession spark, TableDeclaration t, String path) {
    if (t.target() == Target.WAREHOUSE) {
      return Optional.of(
          new Unmet(
              LoadStatus.SKIPPED,
              "Warehouse Tables load through a T-SQL endpoint: set spark.weaver.item."
                  + t.item()
                  + ".jdbcUrl (docs/warehouse.md); none is configured"));
    }
    if (!t.hasLoadProcedure()) {
      return Optional.of(
          new Unmet(
              LoadStatus.SKIPPED,
              "'Has load procedure: false': Weaver installs the structure only"));
    }
    if (!DeltaTable.isDeltaTable(spark, path)) {
      return Optional.of(
          new Unmet(LoadStatus.FAILED, t.qualifiedName() + " is not built yet; run build first"));
    }
    return Optional.empty();
  }
}
