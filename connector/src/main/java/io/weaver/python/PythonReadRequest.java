package io.weaver.python;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.timestamp_micros;

import io.delta.tables.DeltaTable;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.StagingProvider;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.workspace.Identity;
import io.weaver.workspace.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One Python Table load as the Python side sees it: simple values for the {@code LoadContext} and
 * the readers behind {@code self.table(...)} and {@code self.target()}. Timestamps are ISO-8601 UTC
 * text ({@code Instant.toString()}), so no time type crosses py4j.
 */
public final class PythonReadRequest {
  /** {@code row_delete_datetime} of a live row, 9999-12-31 00:00:00 UTC, in microseconds. */
  private static final long LIVE_MICROS = 253_402_214_400_000_000L;

  private final SparkSession spark;
  private final LakehouseLayout layout;
  private final TableDeclaration table;
  private final StagingProvider.Context context;

  public PythonReadRequest(
      SparkSession spark,
      LakehouseLayout layout,
      TableDeclaration table,
      StagingProvider.Context context) {
    this.spark = spark;
    this.layout = layout;
    this.table = table;
    this.context = context;
  }

  /** The session the load runs in. */
  public SparkSession spark() {
    return spark;
  }

  public String item() {
    return table.item();
  }

  /** {@code Schema.Object}. */
  public String tableId() {
    return table.tableId().toString();
  }

  /** {@code Item.Schema.Object}. */
  public String qualifiedName() {
    return table.qualifiedName();
  }

  /** The absolute path of the Table's {@code .py} file. */
  public String file() {
    return table.source().file().toAbsolutePath().toString();
  }

  /** The class that implements {@code read(self)}, {@code <Schema>__<Object>}. */
  public String className() {
    return table.body() instanceof TableBody.Python p
        ? p.className()
        : table.tableId().pythonName();
  }

  public String loadTimestamp() {
    return context.loadTimestamp().toString();
  }

  public String lastLoadTimestamp() {
    return context.lastLoadTimestamp().toString();
  }

  /** The last committed bookmark (JSON text), or {@code null}. */
  public String bookmark() {
    return context.bookmark().orElse(null);
  }

  public boolean incremental() {
    return table.incremental();
  }

  public List<String> primaryKey() {
    return table.primaryKey().map(ColumnSet::columns).orElse(List.of());
  }

  /**
   * The business columns staging must have: those of the built Delta table without the managed
   * columns and the identity column (what the engine validates against).
   */
  public List<String> businessColumns() {
    String path = layout.tablePath(table.item(), table.tableId());
    List<String> managed = ManagedColumns.names(Target.LAKEHOUSE);
    return Arrays.stream(DeltaTable.forPath(spark, path).toDF().columns())
        .filter(c -> !managed.contains(c))
        .filter(c -> !table.identity().map(c::equals).orElse(false))
        .toList();
  }

  /**
   * The rows of another object: {@code Schema.Object} (this Table's item), {@code
   * Item.Schema.Object}, or {@code Files/Schema.Object} (see {@link #filesObject}). Live rows with
   * their business columns; with {@code includeDeleted} every row, with the managed columns too (so
   * deleted rows can be told apart).
   */
  public Dataset<Row> readTable(String identity, boolean includeDeleted) {
    Identity id =
        Identity.parse(identity)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Table "
                            + table.qualifiedName()
                            + ": self.table('"
                            + identity
                            + "'): not an identity; write Schema.Object or Item.Schema.Object"));
    if (id.files()) {
      return filesObject(id);
    }
    String item = id.itemOr(table.item());
    return rows(item + "." + id.tableId(), layout.tablePath(item, id.tableId()), includeDeleted);
  }

  /**
   * A {@code Files/Schema.Object} of this Table's item: the folder {@code
   * <lakehouse>/<Item>/Files/<Schema>/<Object>}, read as Delta when it has a {@code _delta_log} and
   * as Parquet otherwise (its rows as they are: Weaver manages nothing there).
   */
  private Dataset<Row> filesObject(Identity id) {
    String path =
        layout.itemFilesRoot(table.item())
            + "/"
            + id.tableId().schema()
            + "/"
            + id.tableId().object();
    String read = "Table " + table.qualifiedName() + ": self.table('" + id + "')";
    try {
      Path folder = new Path(path);
      FileSystem fs = folder.getFileSystem(spark.sparkContext().hadoopConfiguration());
      if (!fs.exists(folder)) {
        throw new IllegalArgumentException(
            read
                + ": nothing at "
                + path
                + "; put the object's files there (a Delta table or Parquet files)");
      }
      boolean delta = fs.exists(new Path(folder, "_delta_log"));
      return spark.read().format(delta ? "delta" : "parquet").load(path);
    } catch (IOException e) {
      throw new UncheckedIOException(read + ": cannot read " + path, e);
    }
  }

  /** This Table's current live rows (its business columns). */
  public Dataset<Row> readTarget() {
    return rows(
        table.qualifiedName(), layout.tablePath(table.item(), table.tableId()), false, true);
  }

  private Dataset<Row> rows(String name, String path, boolean includeDeleted) {
    return rows(name, path, includeDeleted, false);
  }

  private Dataset<Row> rows(String name, String path, boolean includeDeleted, boolean self) {
    if (!DeltaTable.isDeltaTable(spark, path)) {
      throw new IllegalArgumentException(
          "Table "
              + table.qualifiedName()
              + (self ? ": self.target()" : ": self.table('" + name + "')")
              + ": "
              + name
              + " is not built (no Delta table at "
              + path
              + "); build it first and declare it in Dependencies");
    }
    Dataset<Row> all = spark.read().format("delta").load(path);
    List<String> columns = Arrays.asList(all.columns());
    if (!columns.contains(ManagedColumns.DELETE_TIME)) {
      return all; // not managed by Weaver: every row is live
    }
    if (includeDeleted) {
      return all;
    }
    List<String> managed = ManagedColumns.names(Target.LAKEHOUSE);
    Column[] business =
        columns.stream()
            .filter(c -> !managed.contains(c))
            .map(c -> col(quote(c)))
            .toArray(Column[]::new);
    // An instant, not a timestamp literal: the comparison holds in any session time zone.
    return all.where(
            col(quote(ManagedColumns.DELETE_TIME)).equalTo(timestamp_micros(lit(LIVE_MICROS))))
        .select(business);
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}
