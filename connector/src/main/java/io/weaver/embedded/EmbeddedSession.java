package io.weaver.embedded;

import io.weaver.lakehouse.ItemCatalog;
import io.weaver.lakehouse.ItemCatalogs;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.session.Evaluation;
import io.weaver.session.WeaverConf;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The local Spark session the CLI and tests run in: Delta as the session catalog, Weaver's
 * extension when it is on the classpath, one {@link ItemCatalog} per item of the embedded
 * lakehouse, and a {@code spark_catalog} that persists across processes in a metastore under the
 * lakehouse ({@link EmbeddedMetastore}) when Spark's Hive support is on the classpath, interpreted
 * while the lakehouse is small ({@link SmallLakehouse}, {@link Evaluation}). With a master whose
 * executors run in their own JVMs it ships Weaver's and Delta's jars to them ({@link
 * ExecutorJars}).
 */
public final class EmbeddedSession {
  public static final String WEAVER_EXTENSIONS = "io.weaver.sql.WeaverSparkSessionExtensions";
  public static final String DELTA_EXTENSIONS = "io.delta.sql.DeltaSparkSessionExtension";
  public static final String DELTA_CATALOG = "org.apache.spark.sql.delta.catalog.DeltaCatalog";

  /** The warehouse folder under the lakehouse root, for anything created in spark_catalog. */
  public static final String WAREHOUSE_DIR = ".spark-warehouse";

  /** Compiled query classes Spark keeps ({@code spark.sql.codegen.cache.maxEntries}). */
  static final int CODEGEN_CACHE_ENTRIES = 1000;

  private EmbeddedSession() {}

  /**
   * Builds the session, or configures the existing one (then its static confs — extensions, session
   * catalog, warehouse, metastore — stay as they were), and registers {@code items}.
   *
   * @throws IllegalStateException when another process uses the lakehouse's metastore
   * @param master a Spark master URL; default {@code local[*]}, unless {@code spark-submit} already
   *     gave one
   */
  public static SparkSession create(
      Path lakehouseRoot, Collection<String> items, Optional<String> master) {
    items.forEach(LakehouseLayout::requireItemName); // fail before starting Spark
    SparkSession.Builder builder = SparkSession.builder().appName("weaver");
    sessionConfs(lakehouseRoot, master).forEach(builder::config);
    // A running session (a notebook, spark-submit's) keeps its own metastore, untouched; so does
    // a catalog implementation that spark-submit chose.
    boolean running =
        SparkSession.getActiveSession().isDefined() || SparkSession.getDefaultSession().isDefined();
    if (!running && fromSubmit("spark.sql.catalogImplementation").isEmpty()) {
      EmbeddedMetastore.confs(lakehouseRoot.toAbsolutePath().normalize()).forEach(builder::config);
    }
    // A small lakehouse's queries start interpreted (Evaluation), unless the user chose a mode.
    boolean interpreted =
        !running
            && fromSubmit(Evaluation.WHOLE_STAGE).isEmpty()
            && fromSubmit(Evaluation.FACTORY_MODE).isEmpty()
            && SmallLakehouse.isSmall(lakehouseRoot.toAbsolutePath().normalize());
    if (interpreted) {
      Evaluation.interpretedConfs().forEach(builder::config);
    }
    // In the builder, item catalogs reach the SparkContext's conf, so spark.newSession() (one
    // session per load) has them too; confs set later on a session stay in that session.
    for (String item : items) {
      ItemCatalogs.confs(lakehouseRoot, item).forEach(builder::config);
    }
    SparkSession spark = builder.getOrCreate();
    if (interpreted) {
      Evaluation.startInterpreted(spark);
    }
    for (String item : items) {
      ItemCatalogs.register(spark, lakehouseRoot, item);
    }
    return spark;
  }

  /**
   * The metastore folder of the lakehouse whose lock this JVM holds, if any (a warm process exits
   * when a call moved it to another: Derby keeps the first database open until the JVM exits).
   */
  public static Optional<Path> heldMetastore() {
    return EmbeddedMetastore.heldDirectory();
  }

  /** The confs {@link #create} builds with, in order. */
  static Map<String, String> sessionConfs(Path lakehouseRoot, Optional<String> master) {
    LakehouseLayout layout = layout(lakehouseRoot);
    int cores = Runtime.getRuntime().availableProcessors();
    Map<String, String> confs = new LinkedHashMap<>();
    Optional<String> chosen =
        master
            .filter(m -> !m.isBlank())
            .or(
                () ->
                    fromSubmit("spark.master").isPresent()
                        ? Optional.empty()
                        : Optional.of("local[*]"));
    chosen.ifPresent(m -> confs.put("spark.master", m));
    // Executors in their own JVMs (a cluster, local-cluster) load Weaver's and Delta's classes
    // from spark.jars; spark-submit's --jars/--packages stay first (ExecutorJars). Python needs
    // no conf here: a Python UDF runs in the PYSPARK_PYTHON of the Python that made it (else
    // python3) with the cluster's own pyspark; spark.pyspark.python is read by spark-submit only.
    Optional<String> effective = chosen.or(() -> fromSubmit("spark.master"));
    if (effective.isPresent() && !ExecutorJars.inThisJvm(effective.get())) {
      confs.put("spark.jars", ExecutorJars.merge(fromSubmit("spark.jars"), ExecutorJars.found()));
    }
    confs.put("spark.ui.enabled", "false");
    // Tables that load side by side each run their jobs in a pool of their own; FAIR shares the
    // cores between the pools, so a large Table's jobs do not hold back a small one's.
    confs.put("spark.scheduler.mode", "FAIR");
    confs.put("spark.ui.showConsoleProgress", "false");
    confs.put("spark.sql.extensions", extensions());
    confs.put(ItemCatalogs.CATALOG_PREFIX + "spark_catalog", DELTA_CATALOG);
    confs.put("spark.sql.warehouse.dir", layout.root() + "/" + WAREHOUSE_DIR);
    // Spark's default of 200 partitions is made for clusters; a laptop's MERGE wants few.
    confs.put("spark.sql.shuffle.partitions", Integer.toString(Math.max(2, 2 * cores)));
    confs.put("spark.databricks.delta.snapshotPartitions", Integer.toString(Math.min(cores, 4)));
    // Spark keeps 100 compiled query classes by default; a load runs about forty small jobs of
    // its own shapes, so a few loads evict them and every load compiles again (docs/performance.md,
    // "Compiled code": a fifth of a load suite's CPU went to Janino).
    confs.put("spark.sql.codegen.cache.maxEntries", Integer.toString(CODEGEN_CACHE_ENTRIES));
    confs.put(WeaverConf.LAKEHOUSE, layout.root());
    return confs;
  }

  /**
   * {@code spark.sql.extensions}: Weaver's extension listed before Delta's, or Delta's alone when
   * Weaver's is not on the classpath. Spark applies the extensions in list order, so Weaver's
   * resolution rules run before Delta's: a named read still carries its options ({@code
   * includeDeleted}) when Weaver's read rule sees it, and an SQL {@code INSERT} into a Weaver Table
   * becomes a load before Delta's INSERT check refuses the missing managed columns
   * (docs/dataframe-api.md). The DML guards are a check rule and hold in either order. Each parser
   * wraps the one listed before it, so Delta's parser comes first and hands Weaver's the text it
   * does not parse.
   */
  static String extensions() {
    return isOnClasspath(WEAVER_EXTENSIONS)
        ? WEAVER_EXTENSIONS + "," + DELTA_EXTENSIONS
        : DELTA_EXTENSIONS;
  }

  static boolean isOnClasspath(String className) {
    try {
      Class.forName(className, false, EmbeddedSession.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static LakehouseLayout layout(Path lakehouseRoot) {
    return LakehouseLayout.at(lakehouseRoot.toAbsolutePath().normalize().toString());
  }

  /** A setting {@code spark-submit} passed as a system property. */
  private static Optional<String> fromSubmit(String key) {
    SparkConf fromSystemProperties = new SparkConf(true);
    return fromSystemProperties.contains(key)
        ? Optional.of(fromSystemProperties.get(key))
        : Optional.empty();
  }
}
