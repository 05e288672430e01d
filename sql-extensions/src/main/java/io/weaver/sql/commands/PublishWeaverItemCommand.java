package io.weaver.sql.commands;

import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.load.publish.ItemPublisher;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code PUBLISH WEAVER ITEM i}: readers by name see every Table of the item at its latest
 * version from now on (docs/table-contract.md, "Item publish"). What a client that loads an item
 * Table by Table (the Python package over Spark Connect) ends its item load with; by hand, it
 * publishes loads that committed while a sibling failed, once they are known to be right.
 */
public final class PublishWeaverItemCommand extends WeaverStatement {
  /**
   * {@code item}; {@code publish_id} (the item's latest publish afterwards, null when it never
   * published); {@code kind}; {@code published} (whether this statement committed one); {@code
   * tables} (how many Tables it pins); {@code message}.
   */
  public static final StructType SCHEMA =
      new StructType()
          .add("item", DataTypes.StringType, false)
          .add("publish_id", DataTypes.StringType, true)
          .add("kind", DataTypes.StringType, true)
          .add("published", DataTypes.BooleanType, false)
          .add("tables", DataTypes.IntegerType, false)
          .add("message", DataTypes.StringType, false);

  private final String item;

  public PublishWeaverItemCommand(String item) {
    this(item, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public PublishWeaverItemCommand(String item, Seq<Attribute> output) {
    super(output);
    this.item = Objects.requireNonNull(item, "item");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "PUBLISH WEAVER ITEM " + item;
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    boolean together = WorkspaceAccess.call(statement, () -> weaver.publishesTogether(item));
    ItemPublisher.Outcome o = WorkspaceAccess.call(statement, () -> weaver.publish(item));
    String message =
        together
            ? o.describe()
            : "Item "
                + item
                + " does not publish together (spark.weaver.item."
                + item
                + ".publish): readers see each load as it commits. "
                + o.describe();
    return List.of(
        CatalogueRowBuilder.of("PUBLISH WEAVER ITEM", SCHEMA)
            .set("item", item)
            .set("publish_id", o.manifest().map(ItemPublishManifest::publishId).orElse(null))
            .set("kind", o.manifest().map(ItemPublishManifest::kind).orElse(null))
            .set("published", o.wrote())
            .set("tables", o.manifest().map(m -> m.tables().size()).orElse(0))
            .set("message", message)
            .build());
  }

  @Override
  public List<Object> arguments() {
    return List.of(item);
  }
}
