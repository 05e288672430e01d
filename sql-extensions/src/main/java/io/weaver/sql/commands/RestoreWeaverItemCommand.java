package io.weaver.sql.commands;

import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.load.restore.ItemRestore;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code RESTORE WEAVER ITEM i TO PUBLISH 'id'}: every Table of the item back to the version
 * that publish pinned (each restored to the load that produced it, as RESTORE WEAVER TABLE does),
 * then one publish of the restored versions (docs/table-contract.md, "Item publish"). One row per
 * Table.
 */
public final class RestoreWeaverItemCommand extends WeaverStatement {
  /**
   * {@code table_id}; {@code action} ({@code restored}, {@code unchanged}, {@code not restored});
   * {@code restored_to_load_id}; {@code delta_version} (the table's version afterwards); {@code
   * publish_id} (the publish that made the restore visible); {@code message}.
   */
  public static final StructType SCHEMA =
      new StructType()
          .add("table_id", DataTypes.StringType, false)
          .add("action", DataTypes.StringType, false)
          .add("restored_to_load_id", DataTypes.StringType, true)
          .add("delta_version", DataTypes.LongType, false)
          .add("publish_id", DataTypes.StringType, true)
          .add("message", DataTypes.StringType, false);

  private final String item;
  private final String publishId;

  public RestoreWeaverItemCommand(String item, String publishId) {
    this(item, publishId, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public RestoreWeaverItemCommand(String item, String publishId, Seq<Attribute> output) {
    super(output);
    this.item = Objects.requireNonNull(item, "item");
    this.publishId = Objects.requireNonNull(publishId, "publishId");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "RESTORE WEAVER ITEM " + item;
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    ItemRestore.Result r =
        WorkspaceAccess.call(statement, () -> weaver.restoreItem(item, publishId));
    String published = r.publish().manifest().map(ItemPublishManifest::publishId).orElse(null);
    return r.steps().stream()
        .map(
            s ->
                CatalogueRowBuilder.of("RESTORE WEAVER ITEM", SCHEMA)
                    .set("table_id", s.tableId())
                    .set("action", s.action())
                    .set("restored_to_load_id", s.toLoadId())
                    .set("delta_version", s.deltaVersion())
                    .set("publish_id", published)
                    .set("message", s.message())
                    .build())
        .toList();
  }

  @Override
  public List<Object> arguments() {
    return List.of(item, publishId);
  }
}
