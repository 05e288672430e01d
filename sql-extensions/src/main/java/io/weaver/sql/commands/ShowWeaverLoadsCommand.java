package io.weaver.sql.commands;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalogue.NamedRow;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.metadata.TableDeclaration;
import io.weaver.sql.plans.TableIdentity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code SHOW WEAVER LOADS [FOR id] [LIMIT n]}: rows of {@code _.LoadHistory} (every item of
 * the workspace, or the one Table), newest first, with {@code table_id} item-qualified, and each
 * load's counts per expectation from {@code _.LoadExpectation} (docs/table-contract.md,
 * "Expectations").
 */
public final class ShowWeaverLoadsCommand extends WeaverStatement {
  /** Per expectation of a load: how many of its staging rows violated it. */
  static final StructType EXPECTATION =
      new StructType()
          .add("expectation", DataTypes.StringType, false)
          .add("action", DataTypes.StringType, false)
          .add("rows_violating", DataTypes.LongType, false);

  public static final StructType SCHEMA =
      CatalogueTable.LOAD_HISTORY
          .schema()
          .add("expectations", DataTypes.createArrayType(EXPECTATION, false), false);

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
              + "; check the name (names are case-sensitive).",
          ErrorFacts.of(ErrorParameter.TABLE, table.get()));
    }
    Set<String> items = new LinkedHashSet<>();
    tables.forEach(t -> items.add(t.item()));
    Dataset<Row> all = null;
    Dataset<Row> counted = null;
    for (String item : items) {
      Catalogue catalogue = new Catalogue(weaver.spark(), weaver.layout(), item);
      Dataset<Row> rows =
          qualified(item, mine(catalogue.read(CatalogueTable.LOAD_HISTORY), tables));
      Dataset<Row> counts =
          qualified(item, mine(catalogue.read(CatalogueTable.LOAD_EXPECTATION), tables));
      all = all == null ? rows : all.unionByName(rows);
      counted = counted == null ? counts : counted.unionByName(counts);
    }
    if (all == null) {
      return List.of();
    }
    all = all.orderBy(functions.col("load_id").desc());
    if (limit.isPresent()) {
      all = all.limit(limit.get());
    }
    List<Row> history = all.collectAsList();
    // Catalogue rows: a few per load, read on the driver like the history rows themselves.
    Map<String, List<Row>> byLoad = new HashMap<>();
    Set<String> shown = new HashSet<>();
    history.forEach(h -> shown.add(NamedRow.of(h).string("load_id")));
    for (Row c :
        counted
            .where(functions.col("load_id").isin(shown.toArray()))
            .orderBy("expectation")
            .collectAsList()) {
      NamedRow r = NamedRow.of(c);
      byLoad
          .computeIfAbsent(
              r.string("table_id") + "\u0000" + r.string("load_id"), k -> new ArrayList<>())
          .add(
              CatalogueRowBuilder.of("SHOW WEAVER LOADS", EXPECTATION)
                  .set("expectation", r.string("expectation"))
                  .set("action", r.string("action"))
                  .set("rows_violating", r.longValue("rows_violating"))
                  .build());
    }
    List<Row> result = new ArrayList<>();
    for (Row h : history) {
      NamedRow r = NamedRow.of(h);
      CatalogueRowBuilder row = CatalogueRowBuilder.of("SHOW WEAVER LOADS", SCHEMA);
      for (String name : CatalogueTable.LOAD_HISTORY.schema().fieldNames()) {
        row.set(name, r.value(name));
      }
      row.set(
          "expectations",
          byLoad.getOrDefault(r.string("table_id") + "\u0000" + r.string("load_id"), List.of()));
      result.add(row.build());
    }
    return result;
  }

  /** The rows of the one Table asked for, or every row. */
  private Dataset<Row> mine(Dataset<Row> rows, List<TableDeclaration> tables) {
    return table.isPresent()
        ? rows.where(functions.col("table_id").equalTo(tables.get(0).tableId().toString()))
        : rows;
  }

  private static Dataset<Row> qualified(String item, Dataset<Row> rows) {
    return rows.withColumn(
        "table_id", functions.concat(functions.lit(item + "."), functions.col("table_id")));
  }

  @Override
  public List<Object> arguments() {
    return List.of(table, limit);
  }
}
