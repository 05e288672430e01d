package io.weaver.sql.commands;

import io.weaver.load.LoadPlan;
import io.weaver.load.spec.GateVerdict;
import io.weaver.plan.TablePlan;
import io.weaver.sql.plans.Scope;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code PLAN WEAVER [ITEM i | TABLE id] [ALLOW DESTRUCTIVE] [WAIVE STABILITY GATES]}: one row
 * per Table in load order with Build's action and the load's predicted outcome (docs/plan.md).
 * Nothing is written; a Table that would be refused or fail is a row, not an error.
 */
public final class PlanWeaverCommand extends WeaverStatement {
  static final StructType GATE =
      new StructType()
          .add("gate", DataTypes.StringType, false)
          .add("rows", DataTypes.LongType, false)
          .add("live_rows", DataTypes.LongType, false)
          .add("percent", DataTypes.DoubleType, false)
          .add("threshold", DataTypes.IntegerType, false)
          .add("verdict", DataTypes.StringType, false);

  static final StructType REJECTION =
      new StructType()
          .add("reason", DataTypes.StringType, true)
          .add("key_json", DataTypes.StringType, true)
          .add("row_json", DataTypes.StringType, true);

  public static final StructType SCHEMA =
      new StructType()
          .add("table_id", DataTypes.StringType, false)
          .add("build_action", DataTypes.StringType, false)
          .add("build_message", DataTypes.StringType, true)
          .add("load_status", DataTypes.StringType, false)
          .add("rows_inserted", DataTypes.LongType, false)
          .add("rows_updated", DataTypes.LongType, false)
          .add("rows_deleted", DataTypes.LongType, false)
          .add("rows_revived", DataTypes.LongType, false)
          .add("rows_unchanged", DataTypes.LongType, false)
          .add("rows_rejected", DataTypes.LongType, false)
          .add("target_live_rows_before", DataTypes.LongType, false)
          .add("target_live_rows_after", DataTypes.LongType, false)
          .add("delta_version", DataTypes.LongType, false)
          .add("gates", DataTypes.createArrayType(GATE, false), false)
          .add("rejections", DataTypes.createArrayType(REJECTION, false), false)
          .add("message", DataTypes.StringType, true)
          .add("warnings", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("notes", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("rows_quarantined", DataTypes.LongType, false)
          .add("rows_stale", DataTypes.LongType, false)
          .add("expectations", DataTypes.createArrayType(ExpectationRows.SCHEMA, false), false)
          .add("history_versions", DataTypes.LongType, true);

  private final Scope scope;
  private final boolean allowDestructive;
  private final boolean waiveGates;

  public PlanWeaverCommand(Scope scope, boolean allowDestructive, boolean waiveGates) {
    this(scope, allowDestructive, waiveGates, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public PlanWeaverCommand(
      Scope scope, boolean allowDestructive, boolean waiveGates, Seq<Attribute> output) {
    super(output);
    this.scope = Objects.requireNonNull(scope, "scope");
    this.allowDestructive = allowDestructive;
    this.waiveGates = waiveGates;
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "PLAN WEAVER";
    var weaver = WorkspaceAccess.open(session, statement);
    List<TablePlan> plans =
        WorkspaceAccess.call(
            statement,
            () -> weaver.plan(WorkspaceAccess.scope(scope), allowDestructive, waiveGates));
    return plans.stream().map(PlanWeaverCommand::row).toList();
  }

  private static Row row(TablePlan p) {
    LoadPlan l = p.load();
    return RowFactory.create(
        p.tableId(),
        p.build().action(),
        p.build().message(),
        l.status().text(),
        l.counts().inserted(),
        l.counts().updated(),
        l.counts().deleted(),
        l.counts().revived(),
        l.counts().unchanged(),
        l.counts().rejected(),
        l.counts().liveBefore(),
        l.counts().liveAfter(),
        l.deltaVersion(),
        l.gates().stream().map(PlanWeaverCommand::gate).toList(),
        l.rejectionSample().stream()
            .map(r -> RowFactory.create(r.get("reason"), r.get("key_json"), r.get("row_json")))
            .toList(),
        l.message(),
        l.warnings(),
        l.notes(),
        l.counts().quarantined(),
        l.counts().stale(),
        ExpectationRows.rows(l.expectations()),
        l.historyVersions().isPresent() ? l.historyVersions().getAsLong() : null);
  }

  private static Row gate(GateVerdict g) {
    return RowFactory.create(
        g.gate(), g.rows(), g.liveRows(), g.percent(), g.threshold(), g.verdict());
  }

  @Override
  public List<Object> arguments() {
    return List.of(scope, allowDestructive, waiveGates);
  }
}
