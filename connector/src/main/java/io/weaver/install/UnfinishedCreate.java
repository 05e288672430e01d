package io.weaver.install;

import io.delta.tables.DeltaTable;
import io.weaver.catalogue.NamedRow;
import io.weaver.metadata.TableDeclaration;
import io.weaver.session.WeaverConf;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A table an interrupted Build created but never finished (docs/reliability.md, "An interrupted
 * Build"): Build creates the Delta table first and writes the item's catalogue rows at its end, so
 * a Build stopped in between leaves a table the catalogue does not know. The next Build completes
 * such a table as new instead of comparing it with a previous build that never was.
 *
 * <p>Recognised only when nothing but Build could have touched it: the catalogue has no registry
 * row for the Table (checked by the caller); the table carries this Table's marker properties,
 * which Build's create writes in the same commit as the structure; every commit in its history is
 * Build's own create or replace (no load, no write, no ALTER); and it holds no data file.
 */
final class UnfinishedCreate {
  /** The operations of Build's own commits that create a table (docs/engine.md, "Build"). */
  private static final Set<String> BUILD_CREATES =
      Set.of("CREATE TABLE", "REPLACE TABLE", "CREATE OR REPLACE TABLE");

  private UnfinishedCreate() {}

  /** Whether the Delta table at {@code path} is Build's unfinished create of {@code t}. */
  static boolean at(SparkSession spark, String path, TableDeclaration t) {
    DeltaTable table = DeltaTable.forPath(spark, path);
    NamedRow detail = NamedRow.of(table.detail().select("properties", "numFiles").first());
    Map<String, String> properties = detail.map("properties");
    boolean ours =
        t.tableId().toString().equals(properties.get(WeaverConf.TABLE_ID_PROPERTY))
            && t.item().equals(properties.get(WeaverConf.ITEM_PROPERTY))
            && "true".equals(properties.get(WeaverConf.MANAGED_PROPERTY));
    if (!ours || detail.isNull("numFiles") || detail.longOr("numFiles", -1) != 0) {
      return false;
    }
    List<Row> commits = table.history().select("operation").collectAsList();
    return !commits.isEmpty()
        && commits.stream()
            .map(c -> NamedRow.of(c).string("operation"))
            .allMatch(operation -> operation != null && BUILD_CREATES.contains(operation));
  }
}
