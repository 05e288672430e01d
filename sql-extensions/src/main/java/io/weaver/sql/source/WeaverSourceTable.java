package io.weaver.sql.source;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.lakehouse.ItemCatalog;
import io.weaver.session.WeaverConf;
import io.weaver.sql.commands.WorkspaceAccess;
import io.weaver.workspace.Identifiers;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * What {@code format("weaver")} hands to Spark: the identity, its catalog and identifier, and the
 * catalog's Delta table (schema and properties come from it). The session extension replaces every
 * read and write of this placeholder during analysis; it never scans or writes itself.
 */
public final class WeaverSourceTable implements Table, SupportsRead, SupportsWrite {
  private static final String NEEDS_EXTENSION =
      " needs Weaver's session extension: add io.weaver.sql.WeaverSparkSessionExtensions to"
          + " spark.sql.extensions (next to Delta's) when the session is built.";

  private final String identity;
  private final TableCatalog catalog;
  private final Identifier ident;
  private final Table delta;

  private WeaverSourceTable(String identity, TableCatalog catalog, Identifier ident, Table delta) {
    this.identity = identity;
    this.catalog = catalog;
    this.ident = ident;
    this.delta = delta;
  }

  /** {@code <Item>.<Schema>.<Object>} as given to {@code load}/{@code save}. */
  public String identity() {
    return identity;
  }

  public TableCatalog catalog() {
    return catalog;
  }

  public Identifier identifier() {
    return ident;
  }

  /** The catalog's own table (Delta's {@code DeltaTableV2} for Weaver tables). */
  public Table delta() {
    return delta;
  }

  /**
   * Resolves the {@code path} option ({@code <Item>.<Schema>.<Object>}) to the item's catalog and
   * table. An item not registered as a catalog yet is registered from the session's workspace
   * ({@value WeaverConf#WORKSPACE}); an item mapped to an existing catalog ({@code
   * spark.weaver.item.<Item>.catalog}) is looked up there.
   */
  static WeaverSourceTable resolve(CaseInsensitiveStringMap options) {
    String text = options.get("path");
    if (text == null || text.isBlank()) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_SOURCE_NEEDS_TABLE,
          "format(\"weaver\") needs the Table: load(\"<Item>.<Schema>.<Object>\") or"
              + " save(\"<Item>.<Schema>.<Object>\").");
    }
    String[] parts = text.strip().split("\\.", -1);
    if (parts.length != 3 || !java.util.Arrays.stream(parts).allMatch(Identifiers::isIdentifier)) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_NOT_A_TABLE_IDENTITY,
          "format(\"weaver\"): '"
              + text
              + "' is not a Table identity; write <Item>.<Schema>.<Object> (for example"
              + " Logistics.Parcel.Current). Paths are read with format(\"delta\").",
          ErrorFacts.of(ErrorParameter.VALUE, text));
    }
    String identity = String.join(".", parts);
    SparkSession session = SparkSession.active();
    String catalogName = WeaverConf.of(session).itemCatalog(parts[0]).orElse(parts[0]);
    CatalogManager catalogs =
        ((org.apache.spark.sql.classic.SparkSession) session).sessionState().catalogManager();
    if (!catalogs.isCatalogRegistered(catalogName)
        && session.conf().getOption(WeaverConf.WORKSPACE).isDefined()) {
      WorkspaceAccess.open(session, "format(\"weaver\") " + identity); // registers the items
    }
    if (!catalogs.isCatalogRegistered(catalogName)) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_ITEM_NOT_A_CATALOG,
          "format(\"weaver\") "
              + identity
              + ": item "
              + parts[0]
              + " is not a catalog in this session. Set "
              + WeaverConf.WORKSPACE
              + " to the workspace folder (its items become catalogs), or register"
              + " spark.sql.catalog."
              + parts[0]
              + "=io.weaver.lakehouse.ItemCatalog with its root.",
          ErrorFacts.of(ErrorParameter.TABLE, identity, ErrorParameter.ITEM, parts[0]));
    }
    CatalogPlugin plugin = catalogs.catalog(catalogName);
    if (!(plugin instanceof TableCatalog catalog)) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_CATALOG_HOLDS_NO_TABLES,
          "format(\"weaver\") " + identity + ": catalog " + catalogName + " holds no tables.",
          ErrorFacts.of(ErrorParameter.TABLE, identity, ErrorParameter.CATALOG, catalogName));
    }
    Identifier ident = Identifier.of(new String[] {parts[1]}, parts[2]);
    Table table;
    try {
      table =
          catalog instanceof ItemCatalog item && options.getBoolean(WeaverConf.UNPUBLISHED, false)
              ? item.loadLatest(ident)
              : catalog.loadTable(ident);
    } catch (NoSuchTableException e) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_TABLE_NOT_BUILT,
          "format(\"weaver\"): Weaver table "
              + identity
              + " does not exist (not built yet?): run BUILD WEAVER TABLE "
              + identity
              + " first. Names are case-sensitive.",
          ErrorFacts.of(ErrorParameter.TABLE, identity));
    }
    return new WeaverSourceTable(identity, catalog, ident, table);
  }

  @Override
  public String name() {
    return identity;
  }

  @Override
  @SuppressWarnings("deprecation")
  public StructType schema() {
    return delta.schema();
  }

  @Override
  public Column[] columns() {
    return delta.columns();
  }

  @Override
  public Map<String, String> properties() {
    return delta.properties();
  }

  @Override
  public Set<TableCapability> capabilities() {
    // ACCEPT_ANY_SCHEMA: a DataFrame load carries business columns only; the load checks them.
    return EnumSet.of(
        TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.ACCEPT_ANY_SCHEMA);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    throw new IllegalStateException("Reading format(\"weaver\") " + identity + NEEDS_EXTENSION);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    throw new IllegalStateException("Writing format(\"weaver\") " + identity + NEEDS_EXTENSION);
  }

  /** The identity, when {@code table} is this placeholder. */
  public static Optional<WeaverSourceTable> of(Table table) {
    return table instanceof WeaverSourceTable w ? Optional.of(w) : Optional.empty();
  }
}
