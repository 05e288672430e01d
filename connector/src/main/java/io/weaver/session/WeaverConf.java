package io.weaver.session;

import io.weaver.catalyst.CatalystSettings;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;

/**
 * Weaver's settings (docs/table-contract.md, "Configuration") and the one place they are resolved.
 * Precedence, first wins:
 *
 * <ol>
 *   <li>an explicit value (a statement option, a CLI flag, an API argument);
 *   <li>the Spark session conf ({@code spark.weaver.*});
 *   <li>the workspace file {@code weaver.yaml} ({@link #withWorkspaceFile}, {@link WeaverYaml});
 *   <li>the default.
 * </ol>
 */
public final class WeaverConf {
  /** Every session setting of Weaver's starts with this (so does every key of weaver.yaml). */
  public static final String PREFIX = "spark.weaver.";

  /** The workspace folder or URI. Default {@code .}. */
  public static final String WORKSPACE = PREFIX + "workspace";

  /** The embedded lakehouse root. Default {@code <workspace>/.weaver/lakehouse}. */
  public static final String LAKEHOUSE = PREFIX + "lakehouse";

  /**
   * How keyed loads commit: {@code auto} (default: the direct writer where it can write the table,
   * else MERGE), {@code direct} (fail when it cannot) or {@code merge} (docs/engine.md, "Write
   * paths").
   */
  public static final String LOAD_WRITER = PREFIX + "load.writer";

  /** Prefix of per-item settings: {@code spark.weaver.item.<Item>.<setting>}. */
  public static final String ITEM_PREFIX = PREFIX + "item.";

  /**
   * How many Tables a load runs side by side: a whole number from 1 (one after another, in
   * dependency order) to {@link #MAX_THREADS}, or {@code auto} (the default: {@link #autoThreads}).
   * The CLI's {@code --threads N} sets it.
   */
  public static final String THREADS = PREFIX + "threads";

  /** The most Tables a load runs at once. */
  public static final int MAX_THREADS = 64;

  /** {@code spark.weaver.item.<Item>.catalog}: place the item in an existing Spark catalog. */
  public static final String ITEM_CATALOG_SUFFIX = ".catalog";

  /**
   * {@code spark.weaver.item.<Item>.publish}: {@code together} makes a load of the item visible to
   * readers by name all at once, when it publishes (docs/table-contract.md, "Item publish"); {@code
   * each} (the default) lets each Table's commit be seen as it lands.
   */
  public static final String ITEM_PUBLISH_SUFFIX = ".publish";

  public static final String PUBLISH_TOGETHER = "together";
  public static final String PUBLISH_EACH = "each";

  /**
   * Read option (reader option, or SQL table option {@code WITH ('includeDeleted' = 'true')}): the
   * read returns soft-deleted rows too. Weaver's engine sets it on its own reads of a target.
   */
  public static final String INCLUDE_DELETED = "includeDeleted";

  /**
   * Read option: fail unless the table has reached this Delta version (docs/table-contract.md,
   * "DataFrame API", "Guarantees").
   */
  public static final String MIN_VERSION = "minVersion";

  /**
   * Read option of {@code format("weaver")}: {@code true} reads the Table's latest Delta version
   * even where its item's publish pins an older one (docs/table-contract.md, "Item publish"): what
   * a load reads of the Tables it depends on, and how a Spark Connect client's Python Tables read
   * them.
   */
  public static final String UNPUBLISHED = "unpublished";

  /** Write option of a DataFrame load ({@code format("weaver")}, {@code writeTo}). */
  public static final String WAIVE_STABILITY_GATES = "waiveStabilityGates";

  /** The table property Build sets on every Weaver Table. */
  public static final String MANAGED_PROPERTY = "weaver.managed";

  /** The table property that names a Weaver Table's item (Build; the catalogue tables too). */
  public static final String ITEM_PROPERTY = "weaver.item";

  /** The table property that holds a Weaver Table's {@code Schema.Object} (Build). */
  public static final String TABLE_ID_PROPERTY = "weaver.tableId";

  /** The table property a history table carries: the Table whose versions it keeps (Build). */
  public static final String HISTORY_OF_PROPERTY = "weaver.historyOf";

  /** The table property ({@code true}) every catalogue table carries. */
  public static final String CATALOGUE_PROPERTY = "weaver.catalogue";

  // JVM system properties: settings of a process rather than of a session (how a test suite or
  // bin/weaver runs), read here like the session's.

  /**
   * JVM system property: the default of {@link #LOAD_WRITER} when the session does not set it; how
   * the load suite runs on the MERGE path ({@code -Dweaver.load.writer=merge}).
   */
  public static final String LOAD_WRITER_PROPERTY = "weaver.load.writer";

  /** JVM system property: loads use Delta's public API only ({@code portable}). */
  public static final String DELTA_LOADS_PROPERTY = CatalystSettings.DELTA_LOADS;

  /** JVM system property: {@code true} logs the time of each load step (LoadTrace). */
  public static final String TRACE_PROPERTY = "weaver.trace";

  /** JVM system property: seconds a Python worker may take to start. Default 180. */
  public static final String PYTHON_START_TIMEOUT_PROPERTY = "weaver.python.startTimeoutSeconds";

  /** JVM system property: a source tree whose {@code weaver} Python package the worker runs. */
  public static final String HOME_PROPERTY = "weaver.home";

  /** JVM system property: {@code hive} (default) or {@code memory}, the embedded metastore. */
  public static final String METASTORE_PROPERTY = "weaver.metastore";

  /**
   * JVM system property, set by {@code bin/weaver} only: the file the CLI creates once Spark has
   * started, so that the script keeps the class-data archive the JVM writes at its exit.
   */
  public static final String CLASS_ARCHIVE_MARK_PROPERTY = "weaver.cds.sparkStarted";

  /**
   * JVM system property, set by {@code bin/weaver} only on a warm process it starts: the process's
   * socket, which it writes into a lakehouse's lock file (embedded.LakehouseRelease).
   */
  public static final String WARM_SOCKET_PROPERTY = "weaver.warm.socket";

  public static final String DEFAULT_WORKSPACE = ".";

  /** The lakehouse root relative to the workspace when nothing else is configured. */
  public static final String DEFAULT_LAKEHOUSE_DIR = ".weaver/lakehouse";

  private final ConfLayer session;
  private final ConfLayer workspaceFile;

  private WeaverConf(ConfLayer session, ConfLayer workspaceFile) {
    this.session = session;
    this.workspaceFile = workspaceFile;
  }

  /**
   * {@link #LOAD_WRITER} as asked, trimmed and lower case: the session's, else {@link
   * #LOAD_WRITER_PROPERTY}, else {@code auto}. Read per load, so a session may change it.
   */
  public static String loadWriter(SparkSession spark) {
    String fallback = System.getProperty(LOAD_WRITER_PROPERTY, "auto");
    return spark.conf().get(LOAD_WRITER, fallback).strip().toLowerCase(Locale.ROOT);
  }

  /** Whether {@link #TRACE_PROPERTY} is {@code true}. */
  public static boolean trace() {
    return Boolean.getBoolean(TRACE_PROPERTY);
  }

  /** {@link #PYTHON_START_TIMEOUT_PROPERTY}, default 180. */
  public static long pythonStartTimeoutSeconds() {
    return Long.getLong(PYTHON_START_TIMEOUT_PROPERTY, 180);
  }

  /** {@link #HOME_PROPERTY}, when set. */
  public static Optional<String> home() {
    return Optional.ofNullable(System.getProperty(HOME_PROPERTY));
  }

  /** {@link #METASTORE_PROPERTY} as given, default {@code hive}. */
  public static String metastoreMode() {
    return System.getProperty(METASTORE_PROPERTY, "hive");
  }

  /** Settings from a session's conf. */
  public static WeaverConf of(SparkSession spark) {
    return of(scala.jdk.javaapi.CollectionConverters.asJava(spark.conf().getAll()));
  }

  /** Settings from a session conf given as a map (keys as in Spark). */
  public static WeaverConf of(Map<String, String> sessionConf) {
    return new WeaverConf(ConfLayer.of(sessionConf), ConfLayer.EMPTY);
  }

  /** The seam for {@code weaver.yaml}: a layer consulted after the session conf. */
  public WeaverConf withWorkspaceFile(ConfLayer weaverYaml) {
    return new WeaverConf(session, weaverYaml);
  }

  /** A session's settings with the workspace's {@code weaver.yaml} beneath them. */
  public static WeaverConf forWorkspace(SparkSession spark, java.nio.file.Path workspace) {
    return of(spark).withWorkspaceFile(WeaverYaml.read(workspace));
  }

  /** Every setting as one layer: the session conf, then {@code weaver.yaml}. */
  public ConfLayer settings() {
    return this::setting;
  }

  /** {@code spark.weaver.item.<Item>.catalog} for one item. */
  public static String itemCatalogKey(String item) {
    return ITEM_PREFIX + item + ITEM_CATALOG_SUFFIX;
  }

  /**
   * Whether {@code item} publishes together ({@link #ITEM_PUBLISH_SUFFIX}; session conf, then
   * {@code weaver.yaml}).
   *
   * @throws IllegalArgumentException for a value other than {@code together} or {@code each}
   */
  public boolean publishesTogether(String item) {
    String key = ITEM_PREFIX + item + ITEM_PUBLISH_SUFFIX;
    Optional<String> value = setting(key).map(v -> v.strip().toLowerCase(Locale.ROOT));
    if (value.isEmpty() || value.get().equals(PUBLISH_EACH)) {
      return false;
    }
    if (value.get().equals(PUBLISH_TOGETHER)) {
      return true;
    }
    throw new WeaverArgumentException(
        WeaverErrorClass.WEAVER_INVALID_SETTING,
        "Setting "
            + key
            + " is '"
            + value.get()
            + "': write "
            + PUBLISH_TOGETHER
            + " (readers see all of the item's load or none of it) or "
            + PUBLISH_EACH
            + " (each Table's load is seen as it commits).",
        ErrorFacts.of(ErrorParameter.SETTING, key));
  }

  /**
   * {@link #THREADS} (session conf, then {@code weaver.yaml}); {@code auto} or unset gives {@link
   * #autoThreads} of {@code cores}, the task slots Spark has.
   *
   * @throws IllegalArgumentException for anything else than 1 to {@link #MAX_THREADS} or {@code
   *     auto}
   */
  public int threads(int cores) {
    Optional<String> value = setting(THREADS).map(String::strip);
    if (value.isEmpty() || value.get().equalsIgnoreCase("auto")) {
      return autoThreads(cores);
    }
    try {
      int n = Integer.parseInt(value.get());
      if (n >= 1 && n <= MAX_THREADS) {
        return n;
      }
    } catch (NumberFormatException notANumber) {
      // refused below, with the setting named
    }
    throw new WeaverArgumentException(
        WeaverErrorClass.WEAVER_INVALID_SETTING,
        "Setting "
            + THREADS
            + " is '"
            + value.get()
            + "': write how many Tables load at once, a whole number from 1 (one after another)"
            + " to "
            + MAX_THREADS
            + ", or auto (from the cores Spark has).",
        ErrorFacts.of(ErrorParameter.SETTING, THREADS));
  }

  /**
   * The number of Tables a load runs at once by default: twice the task slots Spark has, at least 2
   * and at most 16. A small Table's load spends most of its time on the driver and waiting for
   * small jobs, so more Tables than cores keep the cores busy (docs/performance.md, "Side by
   * side").
   */
  public static int autoThreads(int cores) {
    return Math.max(2, Math.min(16, 2 * cores));
  }

  /** The workspace: explicit, else {@link #WORKSPACE}, else {@code .}. */
  public String workspace(Optional<String> explicit) {
    // weaver.yaml lives in the workspace, so it cannot say where the workspace is.
    return nonBlank(explicit).or(() -> session.get(WORKSPACE)).orElse(DEFAULT_WORKSPACE);
  }

  /**
   * The lakehouse root: explicit, else {@link #LAKEHOUSE}, else {@code weaver.yaml}, else {@code
   * <workspace>/.weaver/lakehouse} with the workspace resolved by {@link #workspace}.
   */
  public String lakehouse(Optional<String> explicit, Optional<String> explicitWorkspace) {
    return nonBlank(explicit)
        .or(() -> setting(LAKEHOUSE))
        .orElseGet(() -> join(workspace(explicitWorkspace), DEFAULT_LAKEHOUSE_DIR));
  }

  /** The existing catalog an item is mapped to, if any (session conf, then {@code weaver.yaml}). */
  public Optional<String> itemCatalog(String item) {
    return setting(itemCatalogKey(item));
  }

  /**
   * Every item mapped to an existing catalog, item → catalog, sorted by item; the session conf wins
   * over {@code weaver.yaml} per item.
   *
   * @throws IllegalArgumentException for a key whose item part is empty or holds a {@code .}
   */
  public Map<String, String> itemCatalogs() {
    Map<String, String> out = new TreeMap<>();
    collectItemCatalogs(workspaceFile, out);
    collectItemCatalogs(session, out);
    return out;
  }

  private static void collectItemCatalogs(ConfLayer layer, Map<String, String> out) {
    layer
        .withPrefix(ITEM_PREFIX)
        .forEach(
            (key, value) -> {
              if (!key.endsWith(ITEM_CATALOG_SUFFIX)) {
                return; // other per-item settings (jdbcUrl, …) are not ours to parse here
              }
              String item =
                  key.substring(ITEM_PREFIX.length(), key.length() - ITEM_CATALOG_SUFFIX.length());
              if (item.isEmpty() || item.contains(".")) {
                throw new WeaverArgumentException(
                    WeaverErrorClass.WEAVER_INVALID_SETTING,
                    "Setting "
                        + key
                        + " does not name one item: write "
                        + ITEM_PREFIX
                        + "<Item>"
                        + ITEM_CATALOG_SUFFIX
                        + "=<catalog>.",
                    ErrorFacts.of(ErrorParameter.SETTING, key));
              }
              if (value == null || value.isBlank()) {
                throw new WeaverArgumentException(
                    WeaverErrorClass.WEAVER_INVALID_SETTING,
                    "Setting " + key + " is empty: give the name of an existing Spark catalog.",
                    ErrorFacts.of(ErrorParameter.SETTING, key));
              }
              out.put(item, value.strip());
            });
  }

  private Optional<String> setting(String key) {
    return session.get(key).or(() -> workspaceFile.get(key));
  }

  private static Optional<String> nonBlank(Optional<String> value) {
    return value.filter(v -> !v.isBlank());
  }

  private static String join(String folder, String child) {
    return folder.endsWith("/") ? folder + child : folder + "/" + child;
  }
}
