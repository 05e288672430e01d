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
 * Runs {@code SHOW WEAVER LOAD PLAN [ITEM i | TABLE id] [OPEN RUN]}: the Tables that {@code LOAD
 * WEAVER ITEM}/a workspace load covers, in the order it loads them, each with the workspace Tables
 * it depends on (a Table is skipped when one of these failed, was refused or was skipped). Writes
 * nothing. With {@code OPEN RUN} it also opens a load run of these Tables in the session and names
 * it in a {@code run_id} column: a client that loads Table by Table (Spark Connect) loads each with
 * {@code LOAD WEAVER TABLE … IN RUN '<id>'}, which skips a Table whose dependency stopped, and ends
 * with {@code PUBLISH WEAVER RUN '<id>'}.
 */
public final class ShowWeaverLoadPlanCommand extends WeaverStatement {
  /** {@code table_id} ({@code Item.Schema.Object}), {@code form}, {@code depends_on}. */
  public static final StructType SCHEMA =
      new StructType()
          .add("table_id", DataTypes.StringType, false)
          .add("form", DataTypes.StringType, false)
          .add("depends_on", DataTypes.createArrayType(DataTypes.StringType, false), false);

  /** {@link #SCHEMA} and {@code run_id}, the run {@code OPEN RUN} opened (the same on each row). */
  public static final StructType RUN_SCHEMA = SCHEMA.add("run_id", DataTypes.StringType, false);

  private final Scope scope;
  private final boolean openRun;

  /** The plan alone, opening no run. */
  public ShowWeaverLoadPlanCommand(Scope scope) {
    this(scope, false);
  }

  public ShowWeaverLoadPlanCommand(Scope scope, boolean openRun) {
    this(scope, openRun, attributes(openRun ? RUN_SCHEMA : SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public ShowWeaverLoadPlanCommand(Scope scope, boolean openRun, Seq<Attribute> output) {
    super(output);
    this.scope = Objects.requireNonNull(scope, "scope");
    this.openRun = openRun;
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement =
        "SHOW WEAVER LOAD PLAN"
            + (scope.item().isPresent() || scope.table().isPresent() ? " " + scope : "");
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    List<WeaverWorkspace.PlannedLoad> plan =
        WorkspaceAccess.call(statement, () -> weaver.loadPlan(WorkspaceAccess.scope(scope)));
    if (!openRun) {
      return plan.stream().map(p -> row(p, SCHEMA).build()).toList();
    }
    String runId =
        LoadRuns.open(
            session,
            weaver.root(),
            WorkspaceAccess.call(
                statement, () -> weaver.openLoadRun(WorkspaceAccess.scope(scope))));
    return plan.stream().map(p -> row(p, RUN_SCHEMA).set("run_id", runId).build()).toList();
  }

  /** A planned Table's row, by column name. */
  private static CatalogueRowBuilder row(WeaverWorkspace.PlannedLoad p, StructType schema) {
    return CatalogueRowBuilder.of("SHOW WEAVER LOAD PLAN", schema)
        .set("table_id", p.table().qualifiedName())
        .set("form", p.table().source().form().word())
        .set("depends_on", p.dependsOn());
  }

  @Override
  public List<Object> arguments() {
    return List.of(scope, openRun);
  }
}
