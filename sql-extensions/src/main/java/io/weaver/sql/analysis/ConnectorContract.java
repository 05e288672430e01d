package io.weaver.sql.analysis;

import io.weaver.catalyst.rules.EngineScope;
import io.weaver.catalyst.rules.TableContract;
import io.weaver.lakehouse.ItemCatalog;
import io.weaver.metadata.ManagedColumns;
import io.weaver.session.EngineSessions;
import io.weaver.session.WeaverConf;
import io.weaver.sql.source.WeaverSourceTable;
import io.weaver.workspace.Target;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.Table;

/**
 * The Catalyst rules' view of Weaver ({@link TableContract}, {@link EngineScope}) from the
 * connector's definitions — {@link WeaverConf}, {@link ManagedColumns}, {@link ItemCatalog} — and
 * this module's {@code format("weaver")} placeholder, so the rules (module catalyst-rules, below
 * the connector) and the engine share one definition of each.
 */
public enum ConnectorContract implements TableContract, EngineScope {
  INSTANCE;

  @Override
  public boolean isWeaverTable(Map<String, String> properties) {
    return "true".equalsIgnoreCase(properties.get(WeaverConf.MANAGED_PROPERTY));
  }

  @Override
  public Optional<String> identity(Map<String, String> properties) {
    String item = properties.get(WeaverConf.ITEM_PROPERTY);
    String id = properties.get(WeaverConf.TABLE_ID_PROPERTY);
    return item != null && id != null ? Optional.of(item + "." + id) : Optional.empty();
  }

  @Override
  public boolean isItemCatalog(SparkSession session, String catalogName) {
    CatalogManager catalogs = session.sessionState().catalogManager();
    return catalogs.isCatalogRegistered(catalogName)
        && catalogs.catalog(catalogName) instanceof ItemCatalog;
  }

  @Override
  public List<String> managedColumns() {
    return ManagedColumns.names(Target.LAKEHOUSE);
  }

  @Override
  public String deleteTimeColumn() {
    return ManagedColumns.DELETE_TIME;
  }

  @Override
  public String includeDeletedOption() {
    return WeaverConf.INCLUDE_DELETED;
  }

  @Override
  public String minVersionOption() {
    return WeaverConf.MIN_VERSION;
  }

  @Override
  public String waiveStabilityGatesOption() {
    return WeaverConf.WAIVE_STABILITY_GATES;
  }

  @Override
  public Optional<Placeholder> placeholder(Table table) {
    return WeaverSourceTable.of(table)
        .map(w -> new Placeholder(w.identity(), w.catalog(), w.identifier(), w.delta()));
  }

  @Override
  public boolean isEngineSession(SparkSession session) {
    return EngineSessions.isEngineSession(session);
  }
}
