package io.weaver.testing;

import io.delta.tables.DeltaTable;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.check.Check;
import io.weaver.install.BuildRunner;
import io.weaver.lakehouse.ItemCatalogs;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.LoadFaults;
import io.weaver.load.LoadRunner;
import io.weaver.load.StagingProvider;
import io.weaver.load.records.LoadResult;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.TableId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One test's Weaver world, registered with {@code @RegisterExtension}: a temp folder holding a
 * workspace ({@code ws}) and a lakehouse ({@code lake}), the shared session ({@link SharedSpark}),
 * an item of its own registered as a catalog (item catalogs live as long as the shared session, so
 * every test gets a new item name), a writer for declarations, a {@link WeaverWorkspace}, and reads
 * of a Table's rows, live rows, Delta history and catalogue tables.
 *
 * <pre>{@code
 * @RegisterExtension final WeaverFixture weaver = WeaverFixture.item("Run");
 * }</pre>
 *
 * <p>{@link #sharedItem} makes one for a whole class ({@code static} field): the folder then lives
 * until the class is done, for tests that read one built and loaded item (building and loading
 * costs far more than the tests' reads); such a class restores what a test changed.
 */
public final class WeaverFixture implements AfterEachCallback, AfterAllCallback {
  /** The description every {@link #table(String, String, String)} declaration carries. */
  public static final String DESCRIPTION = "Test table.";

  /** The {@code row_delete_datetime} of live rows. */
  public static final String LIVE = "timestamp'9999-12-31 00:00:00'";

  /** Header lines that switch the stability gates off (every change is let through). */
  public static final String GATES_OFF =
      "Stability row threshold: 0\nDelete percentage threshold: 100\n"
          + "Update percentage threshold: 100\n";

  /** Keyed on {@code id}, gates off. */
  public static final String KEYED = "Primary key: id\n" + GATES_OFF;

  private static final AtomicInteger ITEMS = new AtomicInteger();

  private final Path dir;
  private final Path lake;
  private final SparkSession spark;
  private final int number;
  private final String item;
  private final boolean shared;
  private Path workspace;
  private WeaverWorkspace weaver;

  /**
   * Set up when the test instance is made (so that a test's fields can be initialised from the
   * fixture): the temp folder is made and the item registered.
   */
  private WeaverFixture(String prefix, boolean shared) {
    this.shared = shared;
    try {
      dir = Files.createTempDirectory("weaver-test");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    workspace = dir.resolve("ws");
    lake = dir.resolve("lake");
    spark = SharedSpark.get();
    number = ITEMS.incrementAndGet();
    item = prefix + number;
    ItemCatalogs.register(spark, lake, item);
  }

  /** A fixture whose items are named {@code <prefix><n>}, n unique in the JVM. */
  public static WeaverFixture item(String prefix) {
    return new WeaverFixture(prefix, false);
  }

  /**
   * A fixture for a whole test class, registered on a {@code static} field: its folder and item
   * outlive each test and are removed when the class is done.
   */
  public static WeaverFixture sharedItem(String prefix) {
    return new WeaverFixture(prefix, true);
  }

  /** A fault armed by a test never outlives it; the temp folder is removed (unless shared). */
  @Override
  public void afterEach(ExtensionContext context) {
    LoadFaults.disarm();
    if (!shared) {
      close();
    }
  }

  /** A shared fixture's temp folder is removed when its class is done. */
  @Override
  public void afterAll(ExtensionContext context) {
    if (shared) {
      close();
    }
  }

  /** Removes the temp folder (also for a fixture a test made by hand). */
  public void close() {
    weaver = null;
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // A leftover temp folder fails no test.
    }
  }

  /** The test's temp folder (holds {@code ws} and {@code lake}; put anything else here too). */
  public Path dir() {
    return dir;
  }

  public Path workspace() {
    return workspace;
  }

  /** Points the workspace (and {@link #weaver()}) at {@code dir/<folder>} instead of {@code ws}. */
  public Path useWorkspace(String folder) {
    workspace = dir.resolve(folder);
    weaver = null;
    return workspace;
  }

  public Path lake() {
    return lake;
  }

  public LakehouseLayout layout() {
    return LakehouseLayout.at(lake.toString());
  }

  public SparkSession spark() {
    return spark;
  }

  /** This test's item (registered as a catalog in the shared session). */
  public String item() {
    return item;
  }

  /** The number in {@link #item()}: unique in the JVM, for other names a test needs. */
  public int number() {
    return number;
  }

  /** {@code <item>.<id>}. */
  public String qualified(String id) {
    return item + "." + id;
  }

  // ---- writing the workspace

  /** A writer at the workspace root. */
  public WorkspaceFiles files() {
    return new WorkspaceFiles(workspace);
  }

  /** Any file of the item, by its path relative to {@code Lakehouse/<item>/}. */
  public WeaverFixture write(String relative, String content) {
    files().write("Lakehouse/" + item + "/" + relative, content);
    return this;
  }

  /**
   * A Spark SQL Table of the item: {@code Table ID: <id>}, {@code Description: Test table.}, then
   * {@code header} and {@code body}.
   */
  public WeaverFixture table(String id, String header, String body) {
    return table(id, DESCRIPTION, header, body);
  }

  public WeaverFixture table(String id, String description, String header, String body) {
    files().sql(item, id, WorkspaceFiles.header(id, description, header), body);
    return this;
  }

  // ---- running Weaver

  /** A {@link WeaverWorkspace} over the workspace and lakehouse (made at first use). */
  public WeaverWorkspace weaver() {
    if (weaver == null) {
      weaver = new WeaverWorkspace(spark, workspace, lake.toString(), m -> {});
    }
    return weaver;
  }

  /** The workspace's model, checked (fails when Check reports an error). */
  public WorkspaceModel model() {
    return Check.analyze(workspace).validModel();
  }

  public BuildRunner buildRunner() {
    return new BuildRunner(spark, model(), layout(), m -> {});
  }

  public LoadRunner loadRunner() {
    return new LoadRunner(spark, model(), layout(), m -> {});
  }

  /** Staging from one SQL query (no deletions, no bookmark). */
  public StagingProvider staging(String sql) {
    return (t, c) ->
        new StagingProvider.Staging(spark.sql(sql), Optional.empty(), Optional.empty());
  }

  /** Loads the item's Table {@code id} from {@code sql} instead of its body. */
  public List<LoadResult> loadWith(String id, String sql) {
    return weaver().loadWith(qualified(id), false, staging(sql));
  }

  // ---- reading the lakehouse

  /** The folder of the item's Table {@code id}. */
  public String path(String id) {
    return layout().tablePath(item, TableId.parse(id).orElseThrow());
  }

  public String cataloguePath(CatalogueTable table) {
    return layout().cataloguePath(item, table.tableName());
  }

  /** Every row of the item's Table {@code id}, soft-deleted ones too, every column. */
  public Dataset<Row> rows(String id) {
    return spark.read().format("delta").load(path(id));
  }

  /**
   * Every row of the item's Table {@code id} (soft-deleted ones too) by its integer {@code id}
   * column, in key order: for the small keyed tables the load tests declare.
   */
  public java.util.SortedMap<Integer, Row> rowsById(String id) {
    java.util.SortedMap<Integer, Row> byId = new java.util.TreeMap<>();
    rows(id).collectAsList().forEach(r -> byId.put(r.getInt(r.fieldIndex("id")), r));
    return byId;
  }

  /** The live rows of the item's Table {@code id} (not soft-deleted). */
  public Dataset<Row> liveRows(String id) {
    return rows(id).where("row_delete_datetime = " + LIVE);
  }

  /** The Delta history of the item's Table {@code id}, newest first. */
  public Dataset<Row> history(String id) {
    return DeltaTable.forPath(spark, path(id)).history();
  }

  /** The latest Delta version of the item's Table {@code id}. */
  public long version(String id) {
    return DeltaTable.forPath(spark, path(id)).history(1).first().getLong(0);
  }

  /** One of the item's catalogue tables. */
  public Dataset<Row> catalogue(CatalogueTable table) {
    return spark.read().format("delta").load(cataloguePath(table));
  }
}
