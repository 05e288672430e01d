package io.weaver.api;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.check.CheckReport;
import io.weaver.datatest.DataTestResult;
import io.weaver.findings.Finding;
import io.weaver.install.BuildOutcome;
import io.weaver.json.Json;
import io.weaver.lakehouse.ItemCatalogs;
import io.weaver.load.records.LoadResult;
import io.weaver.plan.TablePlan;
import io.weaver.session.WeaverConf;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * The entry points of the {@code weaver} Python package ({@code weaver.Workspace}): thin calls into
 * {@link WeaverWorkspace}, with results as JSON text so that one py4j call returns a whole result
 * list. No logic of its own beyond opening the workspace the way the SQL statements do.
 */
public final class PythonApi {
  private PythonApi() {}

  /**
   * Opens a workspace for Python: the lakehouse is {@code lakehouse} when given, else the session
   * conf {@value WeaverConf#LAKEHOUSE}, else {@code <workspace>/.weaver/lakehouse}; every item of
   * the workspace is registered as a catalog of the session (unless mapped to an existing one).
   * Throws {@code WeaverCheckException} (with the findings) when Check finds errors.
   */
  public static WeaverWorkspace open(SparkSession spark, String workspace, String lakehouse) {
    Path root = Path.of(workspace).toAbsolutePath().normalize();
    WeaverConf conf = WeaverConf.of(spark);
    Path lakehouseRoot =
        Path.of(conf.lakehouse(Optional.ofNullable(lakehouse), Optional.of(root.toString())))
            .toAbsolutePath()
            .normalize();
    return new WeaverWorkspace(spark, root, lakehouseRoot.toString(), m -> {});
  }

  /** Registers the workspace's items as catalogs of the session (after a clean Check). */
  public static void registerItems(WeaverWorkspace weaver) {
    WeaverConf conf = WeaverConf.of(weaver.spark());
    Path lakehouseRoot = Path.of(weaver.layout().root());
    for (String item : weaver.model().items()) {
      if (conf.itemCatalog(item).isEmpty()) {
        ItemCatalogs.register(weaver.spark(), lakehouseRoot, item);
      }
    }
  }

  /** The scope of a Python call: a Table identity, an item, or (both null) everything. */
  public static Scope scope(String identity, String item) {
    if (identity != null && item != null) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST, "give a Table identity or an item, not both");
    }
    if (identity != null) {
      return Scope.table(identity);
    }
    return item == null ? Scope.all() : Scope.item(item);
  }

  /** {@code {"findings": [{"path", "line", "column", "severity", "rule", "message"}...]}}. */
  public static String check(WeaverWorkspace weaver) {
    CheckReport report = weaver.check();
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("findings", report.findings().stream().map(Finding::toMap).toList());
    return Json.write(doc);
  }

  /** {@code [{"table_id", "action", "message"}...]}. */
  public static String build(WeaverWorkspace weaver, Scope scope, boolean allowDestructive) {
    List<BuildOutcome> outcomes = weaver.build(scope, allowDestructive);
    return Json.write(
        outcomes.stream()
            .map(
                o -> {
                  Map<String, Object> m = new LinkedHashMap<>();
                  m.put("table_id", o.tableId());
                  m.put("action", o.action());
                  m.put("message", o.message());
                  return m;
                })
            .toList());
  }

  /** The plan rows (docs/plan.md), as {@code PLAN WEAVER} returns them. */
  public static String plan(
      WeaverWorkspace weaver, Scope scope, boolean allowDestructive, boolean waiveGates) {
    return Json.write(
        weaver.plan(scope, allowDestructive, waiveGates).stream().map(TablePlan::toMap).toList());
  }

  /**
   * The load result rows (docs/table-contract.md, "Load"), as {@code LOAD WEAVER TABLE} returns
   * them.
   */
  public static String load(WeaverWorkspace weaver, Scope scope, boolean waiveGates) {
    return loads(weaver.load(scope, waiveGates));
  }

  static String loads(List<LoadResult> results) {
    return Json.write(results.stream().map(LoadResult::toMap).toList());
  }

  /** The test results, as {@code TEST WEAVER} returns them. */
  public static String test(WeaverWorkspace weaver, Scope scope) {
    return Json.write(weaver.test(scope).stream().map(DataTestResult::toMap).toList());
  }

  /**
   * The load history of the workspace's items ({@code _.LoadHistory}), newest first, with
   * item-qualified {@code table_id}s; only one Table's when {@code identity} is given.
   */
  public static Dataset<Row> history(WeaverWorkspace weaver, String identity) {
    Optional<Scope> one = Optional.ofNullable(identity).map(Scope::table);
    Dataset<Row> all = null;
    for (String item : weaver.model().items()) {
      Dataset<Row> rows =
          new Catalogue(weaver.spark(), weaver.layout(), item)
              .read(CatalogueTable.LOAD_HISTORY)
              .withColumn(
                  "table_id",
                  functions.concat(functions.lit(item + "."), functions.col("table_id")));
      all = all == null ? rows : all.unionByName(rows);
    }
    if (all == null) {
      return weaver.spark().createDataFrame(List.of(), CatalogueTable.LOAD_HISTORY.schema());
    }
    if (one.isPresent()) {
      var id = one.get().table().orElseThrow();
      String suffix = "." + id.tableId();
      all =
          all.where(
              id.item().isPresent()
                  ? functions.col("table_id").equalTo(id.item().get() + suffix)
                  : functions.col("table_id").endsWith(suffix));
    }
    return all.orderBy(functions.col("load_id").desc());
  }
}
