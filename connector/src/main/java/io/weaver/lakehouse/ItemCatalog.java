package io.weaver.lakehouse;

import io.weaver.catalyst.compat.DelegatingStagingCatalog;
import io.weaver.session.LatestReads;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableWritePrivilege;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Spark catalog of one lakehouse item (docs/table-contract.md, "Where tables live"): {@code
 * <Item>.<Schema>.<Object>} is the Delta table at {@code <root>/<Schema>/<Object>}.
 *
 * <p>Register it once per item:
 *
 * <pre>
 * spark.sql.catalog.Logistics=io.weaver.lakehouse.ItemCatalog
 * spark.sql.catalog.Logistics.root=/lakehouse/Logistics/Tables
 * </pre>
 *
 * <p>Tables are Delta's own ({@code DeltaTableV2}): every call delegates to Delta's catalog with
 * the path identifier {@code delta.`<path>`}, so MERGE, UPDATE, DELETE, time travel, DESCRIBE
 * HISTORY, OPTIMIZE and {@code DeltaTable.forName("Logistics.Parcel.Current")} behave as for any
 * Delta table. Schemas are the folders under the root (including {@code _}, the catalogue); a table
 * is an Object folder holding a {@code _delta_log}, however it was created.
 *
 * <p><b>Names.</b> Exactly one namespace level (the Schema). Names are used exactly as written,
 * never lower-cased, so they are <b>case-sensitive on disk</b>: {@code Parcel.Current} and {@code
 * parcel.current} are different folders on Linux and the same folder on a case-insensitive file
 * system (macOS, Windows). Refer to tables with their declared spelling. A Schema or Object name
 * that is empty, is {@code .} or {@code ..}, or contains {@code /}, {@code \}, {@code :} or a
 * control character (NUL included) is refused with {@link IllegalArgumentException}, so no path
 * built from an identifier leaves the root.
 *
 * <p>DROP TABLE deletes the table's folder (these are the item's own tables); DROP NAMESPACE
 * refuses a non-empty schema unless CASCADE, which deletes the folder and everything in it.
 */
public class ItemCatalog extends DelegatingStagingCatalog implements SupportsNamespaces {
  /** The catalog option naming the item's tables folder, {@code <lakehouse root>/<Item>/Tables}. */
  public static final String ROOT_OPTION = "root";

  /** How many pinned tables (publish, table, version) this catalog keeps. */
  private static final int PINNED_TABLES = 32;

  private String name;
  private TableFolders folders;

  /** Tables read at a published version, by publish, path and version; the newest kept. */
  private final Map<String, Table> pinnedTables =
      java.util.Collections.synchronizedMap(
          new java.util.LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Table> eldest) {
              return size() > PINNED_TABLES;
            }
          });

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    String root = options.get(ROOT_OPTION);
    if (root == null || root.isBlank()) {
      throw new IllegalArgumentException(
          "Catalog "
              + name
              + " needs its tables folder: set spark.sql.catalog."
              + name
              + ".root=<lakehouse root>/"
              + name
              + "/"
              + LakehouseLayout.TABLES);
    }
    this.name = name;
    this.folders = new TableFolders(name, root, SessionAccess.hadoopConf());
  }

  @Override
  public String name() {
    return name;
  }

  /** The qualified tables folder this catalog maps to. */
  public String root() {
    return folders.root().toString();
  }

  /** The Delta location of {@code <Schema>.<Object>}; the table need not exist. */
  public String tablePath(String schema, String object) {
    return folders.tablePath(schema, object).toString();
  }

  // ---- tables ----

  @Override
  public Set<TableCatalogCapability> capabilities() {
    return delta().capabilities();
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    String schema = existingSchema(namespace);
    return folders.tables(schema).stream()
        .map(object -> Identifier.of(new String[] {schema}, object))
        .toArray(Identifier[]::new);
  }

  /**
   * A read by name: the table at its item's published version when the item publishes together and
   * has published it (docs/table-contract.md, "Item publish"), else its latest version. Weaver's
   * own sessions ({@link LatestReads}) always read the latest.
   */
  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    Identifier path = existingTable(ident);
    if (!LatestReads.in(activeSession())) {
      Optional<ItemPublishManifest> publish = publishInThisAnalysis();
      OptionalLong published =
          publish
              .map(m -> m.version(ident.namespace()[0] + "." + ident.name()))
              .orElse(OptionalLong.empty());
      if (published.isPresent()) {
        // Always by version, even when it is the latest: a load may commit between a look at the
        // log and Delta's own read of it. Delta reuses its cached snapshot for the latest version;
        // an older one's table is kept here, so its snapshot and file list are built once, not on
        // every read while a load waits for its publish.
        String key =
            publish.get().publishId() + "\u0000" + path.name() + "\u0000" + published.getAsLong();
        Table pinned = pinnedTables.get(key);
        if (pinned == null) {
          pinned = delta().loadTable(path, Long.toString(published.getAsLong()));
          pinnedTables.put(key, pinned);
        }
        return pinned;
      }
    }
    return delta().loadTable(path);
  }

  /**
   * The table at its latest version whatever its item published: {@code format("weaver")} with
   * option {@code unpublished} (what a load reads of its dependencies).
   */
  public Table loadLatest(Identifier ident) throws NoSuchTableException {
    return delta().loadTable(existingTable(ident));
  }

  /**
   * A write by name (INSERT, MERGE, UPDATE, DELETE, {@code writeTo}): Spark asks for the table with
   * the privileges it needs, and a write always goes to the latest version, never a published one.
   */
  @Override
  public Table loadTable(Identifier ident, Set<TableWritePrivilege> writePrivileges)
      throws NoSuchTableException {
    return delta().loadTable(existingTable(ident));
  }

  /** Whether the table exists: its folder holds a Delta log (no snapshot is read). */
  @Override
  public boolean tableExists(Identifier ident) {
    return ident.namespace().length == 1 && folders.isTable(mappedPath(ident));
  }

  private static SparkSession activeSession() {
    scala.Option<SparkSession> active = SparkSession.getActiveSession();
    return active.isDefined() ? active.get() : null;
  }

  /** The item's publish as the analysis running on this thread sees it. */
  private Optional<ItemPublishManifest> publishInThisAnalysis() {
    return PublishedVersions.latestInThisAnalysis(folders.fileSystem(), publishTable());
  }

  private Path publishTable() {
    return folders.tablePath(LakehouseLayout.CATALOGUE_SCHEMA, ItemPublishManifest.TABLE);
  }

  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    return delta().loadTable(existingTable(ident), version);
  }

  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    return delta().loadTable(existingTable(ident), timestamp);
  }

  @Override
  public void invalidateTable(Identifier ident) {
    if (isValidTableName(ident)) {
      delta().invalidateTable(pathIdentifier(mappedPath(ident)));
    }
  }

  @Override
  public Table createTable(
      Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return delta()
        .createTable(
            newTable(ident, properties), columns, partitions, withLocation(ident, properties));
  }

  @Override
  @SuppressWarnings("deprecation")
  public Table createTable(
      Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return delta()
        .createTable(
            newTable(ident, properties), schema, partitions, withLocation(ident, properties));
  }

  @Override
  public StagedTable stageCreate(
      Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return delta()
        .stageCreate(
            newTable(ident, properties), columns, partitions, withLocation(ident, properties));
  }

  @Override
  public StagedTable stageReplace(
      Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws NoSuchNamespaceException, NoSuchTableException {
    return delta()
        .stageReplace(existingTable(ident), columns, partitions, withLocation(ident, properties));
  }

  @Override
  public StagedTable stageCreateOrReplace(
      Identifier ident, Column[] columns, Transform[] partitions, Map<String, String> properties)
      throws NoSuchNamespaceException {
    return delta()
        .stageCreateOrReplace(
            pathIdentifier(checkedLocation(ident, properties)),
            columns,
            partitions,
            withLocation(ident, properties));
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    return delta().alterTable(existingTable(ident), changes);
  }

  @Override
  public boolean dropTable(Identifier ident) {
    if (!isValidTableName(ident)) {
      return false;
    }
    Path path = mappedPath(ident);
    if (!folders.isTable(path)) {
      return false;
    }
    delta().invalidateTable(pathIdentifier(path));
    return folders.deleteRecursively(path);
  }

  @Override
  public boolean purgeTable(Identifier ident) {
    return dropTable(ident);
  }

  @Override
  public void renameTable(Identifier oldIdent, Identifier newIdent)
      throws NoSuchTableException, TableAlreadyExistsException {
    Path from = new Path(existingTable(oldIdent).name());
    Path to = mappedPath(requireTableName(newIdent));
    if (folders.isDirectory(to)) {
      throw new TableAlreadyExistsException(display(newIdent));
    }
    delta().invalidateTable(pathIdentifier(from));
    folders.rename(from, to);
  }

  // ---- namespaces (schemas) ----

  @Override
  public String[][] listNamespaces() {
    return folders.schemas().stream().map(s -> new String[] {s}).toArray(String[][]::new);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length == 0) {
      return listNamespaces();
    }
    existingSchema(namespace);
    return new String[0][]; // a schema holds tables, not further schemas
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return namespace.length == 1
        && PathNames.isSegment(namespace[0])
        && folders.isDirectory(folders.schemaPath(namespace[0]));
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace)
      throws NoSuchNamespaceException {
    String schema = existingSchema(namespace);
    return Map.of(SupportsNamespaces.PROP_LOCATION, folders.schemaPath(schema).toString());
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    String schema = requireSchemaName(namespace);
    Path path = folders.schemaPath(schema);
    String location = metadata.get(SupportsNamespaces.PROP_LOCATION);
    if (location != null && !folders.qualify(location).equals(path)) {
      throw new IllegalArgumentException(
          "Schema "
              + folders.qualified(schema)
              + " lives at "
              + path
              + "; remove LOCATION '"
              + location
              + "'.");
    }
    if (folders.isDirectory(path)) {
      throw new NamespaceAlreadyExistsException(new String[] {name, schema});
    }
    folders.mkdirs(path);
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes)
      throws NoSuchNamespaceException {
    existingSchema(namespace);
    throw new UnsupportedOperationException(
        "Schema "
            + folders.qualified(namespace[0])
            + " is a folder and has no properties to alter.");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade)
      throws NoSuchNamespaceException, NonEmptyNamespaceException {
    if (!namespaceExists(namespace)) {
      return false;
    }
    Path path = folders.schemaPath(namespace[0]);
    if (!cascade && !folders.isEmpty(path)) {
      throw new NonEmptyNamespaceException(new String[] {name, namespace[0]});
    }
    for (String object : folders.tables(namespace[0])) {
      delta().invalidateTable(pathIdentifier(folders.tablePath(namespace[0], object)));
    }
    return folders.deleteRecursively(path);
  }

  // ---- mapping ----

  // Creates and replaces through Spark 4.1's TableInfo overloads (DelegatingStagingCatalog) map
  // names to paths exactly as the overloads below do.

  @Override
  protected StagingTableCatalog target() {
    return delta();
  }

  @Override
  protected Identifier forCreate(Identifier ident, Map<String, String> properties)
      throws TableAlreadyExistsException {
    return newTable(ident, properties);
  }

  @Override
  protected Identifier forReplace(Identifier ident) throws NoSuchTableException {
    return existingTable(ident);
  }

  @Override
  protected Identifier forCreateOrReplace(Identifier ident, Map<String, String> properties) {
    return pathIdentifier(checkedLocation(ident, properties));
  }

  @Override
  protected Map<String, String> targetProperties(Identifier ident, Map<String, String> properties) {
    return withLocation(ident, properties);
  }

  private static StagingTableCatalog delta() {
    return SessionAccess.deltaCatalog();
  }

  static Identifier pathIdentifier(Path path) {
    return Identifier.of(new String[] {"delta"}, path.toString());
  }

  /** The path identifier of an existing table, or {@link NoSuchTableException} naming it. */
  private Identifier existingTable(Identifier ident) throws NoSuchTableException {
    if (ident.namespace().length != 1) {
      throw new NoSuchTableException(display(ident));
    }
    Path path = mappedPath(ident);
    if (!folders.isTable(path)) {
      throw new NoSuchTableException(display(ident));
    }
    return pathIdentifier(path);
  }

  /** The path identifier for a table that must not exist yet. */
  private Identifier newTable(Identifier ident, Map<String, String> properties)
      throws TableAlreadyExistsException {
    Path path = checkedLocation(ident, properties);
    if (folders.isTable(path)) {
      throw new TableAlreadyExistsException(display(ident));
    }
    return pathIdentifier(path);
  }

  /** The mapped path; a LOCATION clause may only repeat it. */
  private Path checkedLocation(Identifier ident, Map<String, String> properties) {
    Path path = mappedPath(requireTableName(ident));
    String location = properties.get(TableCatalog.PROP_LOCATION);
    if (location != null && !folders.qualify(location).equals(path)) {
      throw new IllegalArgumentException(
          "Table "
              + display(ident)
              + " lives at "
              + path
              + "; remove LOCATION '"
              + location
              + "' (tables elsewhere are read with delta.`<path>`).");
    }
    return path;
  }

  private Map<String, String> withLocation(Identifier ident, Map<String, String> properties) {
    Map<String, String> out = new HashMap<>(properties);
    out.remove(TableCatalog.PROP_IS_MANAGED_LOCATION);
    out.remove(TableCatalog.PROP_LOCATION);
    return out;
  }

  private Identifier requireTableName(Identifier ident) {
    if (ident.namespace().length != 1) {
      throw new IllegalArgumentException(
          "Table "
              + display(ident)
              + " needs exactly one schema: write "
              + name
              + ".<Schema>."
              + ident.name()
              + ".");
    }
    return ident;
  }

  private String requireSchemaName(String[] namespace) {
    if (namespace.length != 1) {
      throw new IllegalArgumentException(
          "Catalog "
              + name
              + " has one level of schemas; "
              + String.join(".", namespace)
              + " has "
              + namespace.length
              + ".");
    }
    return namespace[0];
  }

  private String existingSchema(String[] namespace) throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) {
      String[] full = new String[namespace.length + 1];
      full[0] = name;
      System.arraycopy(namespace, 0, full, 1, namespace.length);
      throw new NoSuchNamespaceException(full);
    }
    return namespace[0];
  }

  private boolean isValidTableName(Identifier ident) {
    return ident.namespace().length == 1
        && PathNames.isSegment(ident.namespace()[0])
        && PathNames.isSegment(ident.name());
  }

  /** Throws {@link IllegalArgumentException} for a name that could leave the root. */
  private Path mappedPath(Identifier ident) {
    return folders.tablePath(ident.namespace()[0], ident.name());
  }

  /** {@code Item.Schema.Object} as an identifier, so Spark's message names the whole table. */
  private Identifier display(Identifier ident) {
    String[] namespace = new String[ident.namespace().length + 1];
    namespace[0] = name;
    System.arraycopy(ident.namespace(), 0, namespace, 1, ident.namespace().length);
    return Identifier.of(namespace, ident.name());
  }

  @Override
  public String toString() {
    return "ItemCatalog(" + name + " -> " + folders.root() + ")";
  }
}
