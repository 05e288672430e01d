package io.weaver.datatest;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;

import io.weaver.findings.Severity;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ForeignKey;
import io.weaver.metadata.TableDeclaration;
import io.weaver.workspace.Identity;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;

/**
 * The tests a Table's declaration implies (docs/table-contract.md, "Test"), each as violating live
 * rows: primary-key duplicates and nulls, unique-key duplicates among complete (all non-null)
 * values, nulls in a {@code Not null} column, and child rows whose complete foreign-key value is
 * absent from the parent's live rows. A sample row shows the violating row's business columns.
 */
final class GeneratedTests {
  private static final String HOLDERS = "__weaver_holders";
  private static final String PARENT_PREFIX = "__weaver_parent_";
  private static final String ERROR = Severity.ERROR.word();

  private final SparkSession spark;
  private final LakehouseLayout layout;

  GeneratedTests(SparkSession spark, LakehouseLayout layout) {
    this.spark = spark;
    this.layout = layout;
  }

  /** The probes of one Table, in a stable order: key, unique keys, not null, foreign keys. */
  List<Probe> of(TableDeclaration table) {
    String tableId = table.qualifiedName();
    String prefix = table.tableId() + ":";
    Supplier<Dataset<Row>> live = liveRows(table);
    List<Probe> probes = new ArrayList<>();
    table
        .primaryKey()
        .ifPresent(
            pk ->
                probes.add(
                    new Probe(
                        prefix + DataTestResult.PRIMARY_KEY,
                        tableId,
                        DataTestResult.PRIMARY_KEY,
                        ERROR,
                        () -> primaryKey(live.get(), pk))));
    for (int i = 0; i < table.uniqueKeys().size(); i++) {
      ColumnSet key = table.uniqueKeys().get(i);
      probes.add(
          new Probe(
              prefix + DataTestResult.UNIQUE_KEY + ":" + (i + 1),
              tableId,
              DataTestResult.UNIQUE_KEY,
              ERROR,
              () -> duplicates(live.get(), key.columns())));
    }
    for (String column : table.notNull()) {
      probes.add(
          new Probe(
              prefix + DataTestResult.NOT_NULL + ":" + column,
              tableId,
              DataTestResult.NOT_NULL,
              ERROR,
              () -> {
                Dataset<Row> rows = live.get();
                return rows.where(col(LiveRows.quote(column)).isNull())
                    .select(LiveRows.businessColumns(rows));
              }));
    }
    for (int i = 0; i < table.foreignKeys().size(); i++) {
      ForeignKey fk = table.foreignKeys().get(i);
      probes.add(
          new Probe(
              prefix + DataTestResult.FOREIGN_KEY + ":" + (i + 1),
              tableId,
              DataTestResult.FOREIGN_KEY,
              ERROR,
              () -> orphans(table, live.get(), fk)));
    }
    return probes;
  }

  private Supplier<Dataset<Row>> liveRows(TableDeclaration table) {
    String path = layout.tablePath(table.item(), table.tableId());
    return () -> {
      if (!LiveRows.built(spark, path)) {
        throw new Probe.Unavailable(
            table.qualifiedName() + " is not built (no Delta table at " + path + "); run build");
      }
      return LiveRows.read(spark, path);
    };
  }

  /** Rows with a null key member, plus every row whose complete key another live row shares. */
  private static Dataset<Row> primaryKey(Dataset<Row> live, ColumnSet key) {
    Column[] business = LiveRows.businessColumns(live);
    Dataset<Row> nulls = live.where(not(LiveRows.allPresent(key.columns()))).select(business);
    return nulls.unionByName(duplicates(live, key.columns()));
  }

  /** Rows whose complete (all non-null) key value is held by more than one live row. */
  private static Dataset<Row> duplicates(Dataset<Row> live, List<String> key) {
    // Incomplete values never collide; filtering them first also keeps nulls out of one window.
    return live.where(LiveRows.allPresent(key))
        .withColumn(HOLDERS, count(lit(1)).over(Window.partitionBy(LiveRows.columns(key))))
        .where(col(HOLDERS).gt(1))
        .select(LiveRows.businessColumns(live));
  }

  /** Child rows with a complete foreign-key value that no live parent row holds. */
  private Dataset<Row> orphans(TableDeclaration child, Dataset<Row> live, ForeignKey fk) {
    Dataset<Row> parent = parentRows(child, fk.parent());
    List<String> childColumns = fk.childColumns().columns();
    Column[] parentValues = new Column[childColumns.size()];
    Column matches = lit(true);
    for (int i = 0; i < childColumns.size(); i++) {
      parentValues[i] = col(LiveRows.quote(fk.parentColumns().get(i))).as(PARENT_PREFIX + i);
      matches =
          matches.and(col(LiveRows.quote(childColumns.get(i))).equalTo(col(PARENT_PREFIX + i)));
    }
    return live.where(LiveRows.allPresent(childColumns))
        .join(parent.select(parentValues), matches, "left_anti")
        .select(LiveRows.businessColumns(live));
  }

  private Dataset<Row> parentRows(TableDeclaration child, Identity parent) {
    if (parent.files()) {
      throw new Probe.Unavailable(
          "the parent "
              + parent
              + " is a Files/ object, which Weaver does not load or read; the foreign key cannot"
              + " be tested (declare the parent as a Table, or drop the foreign key)");
    }
    String item = parent.itemOr(child.item());
    String path = layout.tablePath(item, parent.tableId());
    if (!LiveRows.built(spark, path)) {
      throw new Probe.Unavailable(
          "the parent "
              + item
              + "."
              + parent.tableId()
              + " is not built (no Delta table at "
              + path
              + "); build and load it first");
    }
    return LiveRows.read(spark, path);
  }
}
