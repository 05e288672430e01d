package io.weaver.sql.commands;

import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.sql.plans.Scope;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code SHOW WEAVER LOAD PLAN [ITEM i | TABLE id]}: the Tables that {@code LOAD WEAVER
 * ITEM}/a workspace load covers, in the order it loads them, each with the workspace Tables it
 * depends on (a Table is skipped when one of these failed, was refused or was skipped). Writes
 * nothing; a client that loads Table by Table (Spark Connect) follows it.
 */
public final class ShowWeaverLoadPlanCommand extends WeaverStatement {
  /** {@code table_id} ({@code Item.Schema.Object}), {@code form}, {@code depends_on}. */
  public static final StructType SCHEMA =
      new StructType()
          .add("table_id", DataTypes.StringType, false)
          .add("form", DataTypes.StringType, false)
          .add("depends_on", DataTypes.createArrayType(DataTypes.StringType, false), false);

  private final Scope scope;

  public ShowWeaverLoadPlanCommand(Scope scope) {
    this(scope, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public ShowWeaverLoadPlanCommand(Scope scope, Seq<Attribute> output) {
    super(output);
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement =
        "SHOW WEAVER LOAD PLAN"
            + (scope.item().isPresent() || scope.table().isPresent() ? " " + scope : "");
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    return WorkspaceAccess.call(statement, () -> weaver.loadPlan(WorkspaceAccess.scope(scope)))
        .stream()
        .map(
            p ->
                CatalogueRowBuilder.of("SHOW WEAVER LOAD PLAN", SCHEMA)
                    .set("table_id", p.table().qualifiedName())
                    .set("form", p.table().source().form().word())
                    .set("depends_on", p.dependsOn())
                    .build())
        .toList();
  }

  @Override
  public List<Object> arguments() {
    return List.of(scope);
  }
}
