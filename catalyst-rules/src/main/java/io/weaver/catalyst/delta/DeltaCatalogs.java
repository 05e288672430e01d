package io.weaver.catalyst.delta;

import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.delta.catalog.DeltaCatalog;

/**
 * The catalog that resolves Delta path identifiers ({@code delta.`<path>`}) for the item catalogs.
 */
public final class DeltaCatalogs {
  private DeltaCatalogs() {}

  /**
   * The session catalog when it is a staging catalog (Delta's, as {@code
   * spark.sql.catalog.spark_catalog=…DeltaCatalog} configures it, or a runtime's own Delta-aware
   * catalog); else, where open-source Delta's classes are present, a private {@code DeltaCatalog}
   * delegating to the session catalog.
   *
   * @throws IllegalStateException naming the setting when neither is available
   */
  public static StagingTableCatalog forPaths(CatalogPlugin sessionCatalog) {
    if (sessionCatalog instanceof StagingTableCatalog staging) {
      return staging;
    }
    if (!DeltaInternals.present()) {
      throw new IllegalStateException(
          "Weaver's item catalogs need a Delta-aware session catalog: set"
              + " spark.sql.catalog.spark_catalog to Delta's catalog (the session catalog here is "
              + sessionCatalog.getClass().getName()
              + ")");
    }
    DeltaCatalog own = new DeltaCatalog();
    own.setDelegateCatalog(sessionCatalog);
    return own;
  }
}
