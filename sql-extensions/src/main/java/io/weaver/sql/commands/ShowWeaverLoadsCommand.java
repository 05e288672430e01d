package io.weaver.sql.commands;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.metadata.TableDeclaration;
import io.weaver.sql.plans.TableIdentity;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code SHOW WEAVER LOADS [FOR id] [LIMIT n]}: rows of {@code _.LoadHistory} (every item of
 * the workspace, or the one Table), newest first, with {@code table_id} item-qualified.
 */
public final class ShowWeaverLoadsCommand extends WeaverStatement {
  public static final StructType SCHEMA = CatalogueTable.LOAD_HISTORY.schema();

  private final Optional<TableIdentity> table;
  private final Optional<Integer> limit;

  public ShowWeaverLoadsCommand(Optional<TableIdentity> table, Optional<Integer> limit) {
    this(table, limit, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public ShowWeaverLoadsCommand(
      Optional<TableIdentity> table, Optional<Integer> limit, Seq<Attribute> output) {
    super(output);
    this.table = Objects.requireNonNull(table, "table");
    this.limit = Objects.requireNonNull(limit, "limit");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "SHOW WEAVER LOADS" + table.map(t -> " FOR " + t).orElse("");
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    Scope scope = table.map(WorkspaceAccess::scope).orElse(Scope.all());
    List<TableDeclaration> tables = WorkspaceAccess.call(statement, () -> weaver.tables(scope));
    if (table.isPresent() && tables.isEmpty()) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_TABLE_NOT_FOUND,
          statement
              + ": the workspace has no Table "
              + table.get()
              + "; check the name (names are case-sensitive).");
    }
    Set<String> items = new LinkedHashSet<>();
    tables.forEach(t -> items.add(t.item()));
    Dataset<Row> all = null;
    for (String item : items) {
      Catalogue catalogue = new Catalogue(weaver.spark(), weaver.layout(), item);
      Dataset<Row> rows = catalogue.read(CatalogueTable.LOAD_HISTORY);
      if (table.isPresent()) {
        rows = rows.where(functions.col("table_id").equalTo(tables.get(0).tableId().toString()));
      }
      rows =
          rows.withColumn(
              "table_id", functions.concat(functions.lit(item + "."), functions.col("table_id")));
      all = all == null ? rows : all.unionByName(rows);
    }
    if (all == null) {
      return List.of();
    }
    all = all.orderBy(functions.col("load_id").desc());
    if (limit.isPresent()) {
      all = all.limit(limit.get());
    }
    return all.collectAsList();
  }

  @Override
  public List<Object> arguments() {
    return List.of(table, limit);
  }
}
