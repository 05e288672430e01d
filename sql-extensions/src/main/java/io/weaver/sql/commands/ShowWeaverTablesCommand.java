package io.weaver.sql.commands;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.lakehouse.PublishedVersions;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.TableDeclaration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code SHOW WEAVER TABLES [IN i]}: one row per declared Table of the workspace (or item), in
 * item and identity order, joined with what the catalogue knows: whether it is built and its most
 * recent load.
 */
public final class ShowWeaverTablesCommand extends WeaverStatement {
  /**
   * {@code item}; {@code table_id} ({@code Item.Schema.Object}); {@code form} ({@code sparksql},
   * {@code python}, {@code tsql}); {@code target} ({@code lakehouse}/{@code warehouse}); {@code
   * primary_key} (empty when unkeyed); {@code incremental}; {@code deletes} (the deletion mode,
   * null when unkeyed); {@code sequence_column} (the {@code Sequence column}, null when not
   * declared); {@code built} (in {@code _.TableDictionary}); {@code built_at}; {@code
   * last_load_id}, {@code last_status} (the newest row of {@code _.LoadHistory}, null before any
   * load); {@code last_delta_version} (of {@code _.LoadState}, the watermark of the last succeeded
   * load); {@code published_version} (the version readers by name see, when the item's publish pins
   * the Table: docs/table-contract.md, "Item publish"; else null, and they see the latest).
   */
  public static final StructType SCHEMA =
      new StructType()
          .add("item", DataTypes.StringType, false)
          .add("table_id", DataTypes.StringType, false)
          .add("form", DataTypes.StringType, false)
          .add("target", DataTypes.StringType, false)
          .add("primary_key", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("incremental", DataTypes.BooleanType, false)
          .add("deletes", DataTypes.StringType, true)
          .add("sequence_column", DataTypes.StringType, true)
          .add("built", DataTypes.BooleanType, false)
          .add("built_at", DataTypes.TimestampType, true)
          .add("last_load_id", DataTypes.StringType, true)
          .add("last_status", DataTypes.StringType, true)
          .add("last_delta_version", DataTypes.LongType, true)
          .add("published_version", DataTypes.LongType, true);

  private final Optional<String> item;

  public ShowWeaverTablesCommand(Optional<String> item) {
    this(item, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public ShowWeaverTablesCommand(Optional<String> item, Seq<Attribute> output) {
    super(output);
    this.item = Objects.requireNonNull(item, "item");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "SHOW WEAVER TABLES" + item.map(i -> " IN " + i).orElse("");
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    Scope scope = item.map(Scope::item).orElse(Scope.all());
    List<TableDeclaration> tables = WorkspaceAccess.call(statement, () -> weaver.tables(scope));
    if (item.isPresent() && tables.isEmpty()) {
      throw io.weaver.catalyst.compat.SparkErrors.analysis(
          WeaverErrorClass.WEAVER_ITEM_NOT_FOUND,
          statement + ": the workspace has no item " + item.get() + " (names are case-sensitive).",
          ErrorFacts.of(ErrorParameter.ITEM, item.get()));
    }
    Map<String, ItemFacts> facts = new HashMap<>();
    List<Row> rows = new ArrayList<>();
    for (TableDeclaration t : tables) {
      ItemFacts f = facts.computeIfAbsent(t.item(), i -> ItemFacts.read(weaver, i));
      String id = t.tableId().toString();
      Row built = f.built.get(id);
      Row last = f.lastLoad.get(id);
      Row state = f.state.get(id);
      rows.add(
          CatalogueRowBuilder.of("SHOW WEAVER TABLES", SCHEMA)
              .set("item", t.item())
              .set("table_id", t.qualifiedName())
              .set("form", t.source().form().word())
              .set("target", t.target().word())
              .set("primary_key", t.primaryKey().map(ColumnSet::columns).orElse(List.of()))
              .set("incremental", t.incremental())
              .set("deletes", t.primaryKey().isPresent() ? t.deletes().word() : null)
              .set("sequence_column", t.sequenceColumn().orElse(null))
              .set("built", built != null)
              .set("built_at", built == null ? null : built.getAs("built_at"))
              .set("last_load_id", last == null ? null : last.getAs("load_id"))
              .set("last_status", last == null ? null : last.getAs("status"))
              .set("last_delta_version", state == null ? null : state.getAs("last_delta_version"))
              .set(
                  "published_version",
                  f.published
                      .map(p -> p.version(id))
                      .filter(java.util.OptionalLong::isPresent)
                      .map(java.util.OptionalLong::getAsLong)
                      .orElse(null))
              .build());
    }
    return rows;
  }

  /** One item's catalogue facts, keyed by Table ID. */
  private record ItemFacts(
      Map<String, Row> built,
      Map<String, Row> lastLoad,
      Map<String, Row> state,
      Optional<ItemPublishManifest> published) {
    static ItemFacts read(WeaverWorkspace weaver, String item) {
      Catalogue catalogue = new Catalogue(weaver.spark(), weaver.layout(), item);
      Map<String, Row> built =
          byId(
              catalogue
                  .read(CatalogueTable.TABLE_DICTIONARY)
                  .select("table_id", "built_at")
                  .collectAsList());
      Map<String, Row> last =
          byId(
              catalogue
                  .read(CatalogueTable.LOAD_HISTORY)
                  .groupBy("table_id")
                  .agg(functions.max(functions.struct("load_id", "status")).as("last"))
                  .select("table_id", "last.load_id", "last.status")
                  .collectAsList());
      Map<String, Row> state =
          byId(
              catalogue
                  .read(CatalogueTable.LOAD_STATE)
                  .select("table_id", "last_delta_version")
                  .collectAsList());
      Optional<ItemPublishManifest> published =
          PublishedVersions.latest(weaver.layout().cataloguePath(item, ItemPublishManifest.TABLE));
      return new ItemFacts(built, last, state, published);
    }

    private static Map<String, Row> byId(List<Row> rows) {
      Map<String, Row> out = new HashMap<>();
      rows.forEach(r -> out.put(r.<String>getAs("table_id"), r));
      return out;
    }
  }

  @Override
  public List<Object> arguments() {
    return List.of(item);
  }
}
