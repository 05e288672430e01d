package io.weaver.sql.commands;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code SHOW WEAVER PUBLISHES FOR i [LIMIT n]}: the rows of the item's {@code _.ItemPublish},
 * newest publish first (its Tables by name), the last {@code n} publishes when limited
 * (docs/table-contract.md, "Item publish"). An item that never published has none.
 */
public final class ShowWeaverPublishesCommand extends WeaverStatement {
  public static final StructType SCHEMA = CatalogueTable.ITEM_PUBLISH.schema();

  private final String item;
  private final Optional<Integer> limit;

  public ShowWeaverPublishesCommand(String item, Optional<Integer> limit) {
    this(item, limit, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public ShowWeaverPublishesCommand(String item, Optional<Integer> limit, Seq<Attribute> output) {
    super(output);
    this.item = Objects.requireNonNull(item, "item");
    this.limit = Objects.requireNonNull(limit, "limit");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "SHOW WEAVER PUBLISHES FOR " + item;
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    if (WorkspaceAccess.call(statement, () -> weaver.tables(Scope.item(item))).isEmpty()) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_ITEM_NOT_FOUND,
          statement + ": the workspace has no item " + item + " (names are case-sensitive).",
          ErrorFacts.of(ErrorParameter.ITEM, item));
    }
    Dataset<Row> rows =
        new Catalogue(weaver.spark(), weaver.layout(), item).read(CatalogueTable.ITEM_PUBLISH);
    if (limit.isPresent()) {
      Row max = rows.agg(functions.max("publish_sequence").as("newest")).first();
      Long newest = max.<Long>getAs("newest");
      rows =
          rows.where(
              functions.col("publish_sequence").gt((newest == null ? 0 : newest) - limit.get()));
    }
    String[] names = SCHEMA.fieldNames();
    return rows
        .orderBy(functions.col("publish_sequence").desc(), functions.col("table_id"))
        .collectAsList()
        .stream()
        .map(
            r -> {
              CatalogueRowBuilder row = CatalogueRowBuilder.of("SHOW WEAVER PUBLISHES", SCHEMA);
              Arrays.stream(names).forEach(n -> row.set(n, r.getAs(n)));
              return row.build();
            })
        .toList();
  }

  @Override
  public List<Object> arguments() {
    return List.of(item, limit);
  }
}
