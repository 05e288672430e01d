package io.weaver.lakehouse;

import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import java.util.Objects;

/**
 * Where an embedded lakehouse keeps its tables (docs/table-contract.md, "Where tables live"):
 * {@code <root>/<Item>/Tables/<Schema>/<Object>}, with the catalogue under the schema {@code _}.
 * This is Fabric's layout for lakehouses with schemas.
 *
 * <p>Every name is checked before it becomes a path segment (not empty, not {@code .} or {@code
 * ..}, no {@code /}, {@code \}, {@code :} or control characters), so a path built here always stays
 * under the root. Names are used exactly as given: they are case-sensitive on disk.
 */
public final class LakehouseLayout {
  /** The folder under an item that holds its schemas. */
  public static final String TABLES = "Tables";

  /**
   * An item's file area, beside its tables: {@code <root>/<Item>/Files}, as in a Fabric lakehouse.
   */
  public static final String FILES = "Files";

  /** The schema that holds Weaver's catalogue tables. */
  public static final String CATALOGUE_SCHEMA = "_";

  private final String root;

  private LakehouseLayout(String root) {
    this.root = root;
  }

  /**
   * @param lakehouseRoot a local path or a Hadoop URI ({@code abfss://…}); a trailing {@code /} is
   *     ignored
   */
  public static LakehouseLayout at(String lakehouseRoot) {
    Objects.requireNonNull(lakehouseRoot, "lakehouseRoot");
    String trimmed = lakehouseRoot;
    while (trimmed.length() > 1 && trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    if (trimmed.isBlank()) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "The lakehouse root is empty; give a folder or a URI.");
    }
    return new LakehouseLayout(trimmed);
  }

  public String root() {
    return root;
  }

  /** {@code <root>/<Item>/Tables}: the {@code root} option of the item's {@link ItemCatalog}. */
  public String itemTablesRoot(String item) {
    return join(root, requireItemName(item), TABLES);
  }

  /** {@code <root>/<Item>/Files}: the item's file area. */
  public String itemFilesRoot(String item) {
    return join(root, requireItemName(item), FILES);
  }

  /**
   * {@code <root>/<Item>/Files/_weaver/<name>}: a file Weaver keeps about an item that is no table
   * (the last test run, docs/docs-site.md). It sits in the item's file area because a Fabric
   * lakehouse has no other place for files; no Table reads {@code Files/_weaver}.
   */
  public String weaverFilePath(String item, String name) {
    return join(
        itemFilesRoot(item),
        WEAVER_FILES,
        PathNames.requireSegment("File", name, item + "/" + name));
  }

  /** The folder under an item's file area holding Weaver's own files. */
  public static final String WEAVER_FILES = "_weaver";

  /**
   * The file area beside an item's tables folder ({@code …/<Item>/Tables} → {@code
   * …/<Item>/Files}), for sessions that know an item only by its catalog's {@code root} option.
   */
  public static String filesRootBeside(String itemTablesRoot) {
    String trimmed = itemTablesRoot;
    while (trimmed.length() > 1 && trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    int slash = trimmed.lastIndexOf('/');
    return (slash < 0 ? "" : trimmed.substring(0, slash + 1)) + FILES;
  }

  /** {@code <root>/<Item>/Tables/<Schema>/<Object>}: the Delta table's location. */
  public String tablePath(String item, String schema, String object) {
    String qualified = item + "." + schema + "." + object;
    return join(
        itemTablesRoot(item),
        PathNames.requireSegment("Schema", schema, qualified),
        PathNames.requireSegment("Object", object, qualified));
  }

  /** The Delta location of a declared Table. */
  public String tablePath(String item, io.weaver.workspace.TableId id) {
    return tablePath(item, id.schema(), id.object());
  }

  /** The Delta location of a catalogue table ({@code _.LoadHistory} …) of an item. */
  public String cataloguePath(String item, String name) {
    return tablePath(item, CATALOGUE_SCHEMA, name);
  }

  /**
   * Returns {@code item} when it can name both a folder and a Spark catalog, else throws {@link
   * IllegalArgumentException}. A catalog name cannot contain {@code .}: Spark would read {@code
   * spark.sql.catalog.A.B} as option {@code B} of catalog {@code A}.
   */
  public static String requireItemName(String item) {
    PathNames.requireSegment("Item", item, String.valueOf(item));
    if (item.contains(".")) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "Item name '" + item + "' is not allowed: a Spark catalog name cannot contain '.'.");
    }
    if (item.equalsIgnoreCase("spark_catalog") || item.equalsIgnoreCase("system")) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "Item name '" + item + "' is not allowed: Spark reserves it for a built-in catalog.");
    }
    return item;
  }

  static String join(String parent, String... children) {
    StringBuilder out = new StringBuilder(parent);
    for (String child : children) {
      if (out.charAt(out.length() - 1) != '/') {
        out.append('/');
      }
      out.append(child);
    }
    return out.toString();
  }

  @Override
  public String toString() {
    return root;
  }
}
