package io.weaver.staging;

import io.weaver.lakehouse.ItemCatalog;
import io.weaver.lakehouse.ItemCatalogs;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.session.Evaluation;
import io.weaver.session.LatestReads;
import io.weaver.session.WeaverConf;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A session for one item's statements (a Table's program, an authored test): isolated from the
 * caller's temporary views and runtime confs, with the catalogs the caller has, and statements
 * whose names resolve as {@link SourceNames} says.
 */
public final class ItemSession {
  private final SparkSession session;
  private final SourceNames names;

  private ItemSession(SparkSession session, SourceNames names) {
    this.session = session;
    this.names = names;
  }

  /**
   * A new session beside {@code spark} for the statements of {@code owner} (a Table or test of
   * {@code item}, named in messages).
   */
  public static ItemSession of(SparkSession spark, String item, String owner) {
    SparkSession session = spark.newSession();
    // Weaver's own statements read the latest version of a published item's Tables: a load reads
    // what the Tables it depends on committed in this run, before the item publishes.
    LatestReads.mark(session);
    Evaluation.inherit(spark, session);
    // Catalog and Weaver confs set at runtime on the caller's session are not inherited.
    CollectionConverters.asJava(spark.conf().getAll())
        .forEach(
            (key, value) -> {
              if (key.startsWith("spark.sql.catalog.") || key.startsWith(WeaverConf.PREFIX)) {
                session.conf().set(key, value);
              }
            });
    String rootKey = ItemCatalogs.CATALOG_PREFIX + item + "." + ItemCatalog.ROOT_OPTION;
    String filesRoot =
        session.conf().getOption(rootKey).isDefined()
            ? LakehouseLayout.filesRootBeside(session.conf().get(rootKey))
            : LakehouseLayout.FILES;
    return new ItemSession(
        session, new SourceNames(item, filesRoot, owner, name -> hasTable(session, item, name)));
  }

  /** The Spark session the statements run in. */
  public SparkSession session() {
    return session;
  }

  /** Runs one statement, its names resolved as {@link SourceNames} says. */
  public Dataset<Row> sql(String statement) {
    return session.sql(names.rewrite(statement));
  }

  private static boolean hasTable(SparkSession session, String item, List<String> name) {
    CatalogPlugin catalog = session.sessionState().catalogManager().catalog(item);
    if (!(catalog instanceof TableCatalog tables)) {
      return false;
    }
    try {
      return tables.tableExists(Identifier.of(new String[] {name.get(0)}, name.get(1)));
    } catch (IllegalArgumentException notATableName) {
      return false; // a name the item catalog refuses ("..", a path) is no table of the item
    }
  }
}
