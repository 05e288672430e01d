package io.weaver.lakehouse;

import io.weaver.workspace.Identifiers;
import io.weaver.workspace.TableId;

/**
 * Where tables live in a Lakehouse root (spec §8, Fabric's layout for lakehouses with schemas):
 * {@code <root>/<Item>/Tables/<Schema>/<Object>}, and the catalogue at {@code
 * <root>/<Item>/Tables/_/<Name>}. The root is a local folder or any Hadoop URI. Every path is built
 * from validated identifiers only, so it stays under the root.
 */
public final class LakehouseLayout {
  /** The catalogue schema of every item. */
  public static final String CATALOGUE_SCHEMA = "_";

  private final String root;

  public LakehouseLayout(String root) {
    String trimmed = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("the lakehouse root is empty");
    }
    this.root = trimmed;
  }

  public String root() {
    return root;
  }

  /** {@code <root>/<Item>/Tables}: the root of an item's catalog. */
  public String itemTables(String item) {
    return root + "/" + checked(item) + "/Tables";
  }

  /** The Delta path of a Table. */
  public String tablePath(String item, TableId id) {
    return itemTables(item) + "/" + checked(id.schema()) + "/" + checked(id.object());
  }

  /** The Delta path of a catalogue table ({@code _.LoadHistory} …). */
  public String cataloguePath(String item, String name) {
    return itemTables(item) + "/" + CATALOGUE_SCHEMA + "/" + checked(name);
  }

  private static String checked(String identifier) {
    if (!Identifiers.isIdentifier(identifier)) {
      throw new IllegalArgumentException(
          "'" + identifier + "' is not an identifier; refusing to build a lakehouse path from it");
    }
    return identifier;
  }
}
