package io.weaver.sql.commands;

import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.install.BuildOutcome;
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
 * Runs {@code BUILD WEAVER [ITEM i | TABLE id] [ALLOW DESTRUCTIVE]}: one row per Table, {@code
 * table_id, action, message} (actions as in {@link BuildOutcome}). A refused or failed Table is a
 * row, not an error.
 */
public final class BuildWeaverCommand extends WeaverStatement {
  public static final StructType SCHEMA =
      new StructType()
          .add("table_id", DataTypes.StringType, false)
          .add("action", DataTypes.StringType, false)
          .add("message", DataTypes.StringType, true);

  private final Scope scope;
  private final boolean allowDestructive;

  public BuildWeaverCommand(Scope scope, boolean allowDestructive) {
    this(scope, allowDestructive, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public BuildWeaverCommand(Scope scope, boolean allowDestructive, Seq<Attribute> output) {
    super(output);
    this.scope = Objects.requireNonNull(scope, "scope");
    this.allowDestructive = allowDestructive;
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "BUILD WEAVER";
    var weaver = WorkspaceAccess.open(session, statement);
    List<BuildOutcome> outcomes =
        WorkspaceAccess.call(
            statement, () -> weaver.build(WorkspaceAccess.scope(scope), allowDestructive));
    return outcomes.stream()
        .map(
            o ->
                CatalogueRowBuilder.of("BUILD WEAVER", SCHEMA)
                    .set("table_id", o.tableId())
                    .set("action", o.action())
                    .set("message", o.message())
                    .build())
        .toList();
  }

  @Override
  public List<Object> arguments() {
    return List.of(scope, allowDestructive);
  }
}
