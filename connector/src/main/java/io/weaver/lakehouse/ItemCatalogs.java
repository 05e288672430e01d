package io.weaver.lakehouse;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * Makes items Spark catalogs: {@code spark.sql.catalog.<Item>} names {@link ItemCatalog} with the
 * item's {@code Tables} folder as its root, on a running session or in a session builder's confs.
 */
public final class ItemCatalogs {
  /** Spark's conf prefix for catalog plugins: {@code spark.sql.catalog.<name>}. */
  public static final String CATALOG_PREFIX = "spark.sql.catalog.";

  private ItemCatalogs() {}

  /**
   * Registers {@code item} as the catalog {@code <item>} over {@code
   * <lakehouseRoot>/<item>/Tables}, on a running session. Spark instantiates catalogs lazily by
   * name, so this takes effect at the catalog's first use. Registering the same item at the same
   * root again does nothing. The registration belongs to {@code spark} only: a session made later
   * with {@code spark.newSession()} needs its own call (items given to {@code
   * EmbeddedSession.create} are in every session).
   *
   * @throws IllegalStateException when the name is already a catalog with another class or root
   */
  public static void register(SparkSession spark, Path lakehouseRoot, String item) {
    String root = layout(lakehouseRoot).itemTablesRoot(item);
    String classKey = CATALOG_PREFIX + item;
    String rootKey = rootKey(item);
    Optional<String> existingClass = option(spark, classKey);
    if (existingClass.isPresent()) {
      Optional<String> existingRoot = option(spark, rootKey);
      if (existingClass.get().equals(ItemCatalog.class.getName())
          && existingRoot.equals(Optional.of(root))) {
        return;
      }
      throw new IllegalStateException(
          "Catalog "
              + item
              + " is already registered ("
              + classKey
              + "="
              + existingClass.get()
              + existingRoot.map(r -> ", root " + r).orElse("")
              + "); cannot map item "
              + item
              + " to "
              + root
              + " in this session.");
    }
    spark.conf().set(rootKey, root); // the root first: the class makes the catalog loadable
    spark.conf().set(classKey, ItemCatalog.class.getName());
  }

  /** The two confs that make {@code item} a catalog over its folder of the lakehouse. */
  public static Map<String, String> confs(Path lakehouseRoot, String item) {
    Map<String, String> confs = new LinkedHashMap<>();
    confs.put(rootKey(item), layout(lakehouseRoot).itemTablesRoot(item));
    confs.put(CATALOG_PREFIX + item, ItemCatalog.class.getName());
    return confs;
  }

  private static String rootKey(String item) {
    return CATALOG_PREFIX + item + "." + ItemCatalog.ROOT_OPTION;
  }

  private static LakehouseLayout layout(Path lakehouseRoot) {
    return LakehouseLayout.at(lakehouseRoot.toAbsolutePath().normalize().toString());
  }

  private static Optional<String> option(SparkSession spark, String key) {
    return spark.conf().getOption(key).isDefined()
        ? Optional.of(spark.conf().get(key))
        : Optional.empty();
  }
}
