package io.weaver.catalyst.rules;

import io.weaver.catalyst.compat.ScalaSeqs;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.delta.DeltaInternals;
import io.weaver.catalyst.delta.DeltaRelations;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.types.DataTypes;
import scala.Option;

/**
 * Live rows on read (docs/table-contract.md, "Managed columns", "DataFrame API"): every read of a
 * Weaver table (a Delta table marked {@code weaver.managed=true}, {@link
 * TableContract#isWeaverTable}) gets {@code row_delete_datetime = 9999-12-31 00:00:00 UTC} (its
 * {@link TableContract#deleteTimeColumn} equal to the live sentinel) directly above it, whatever
 * the path — an item catalog name, {@code delta.`path`}, {@code format("delta")}, {@code
 * format("weaver")}, a view, time travel.
 *
 * <p>Left alone:
 *
 * <ul>
 *   <li>DML targets (Spark's and Delta's DELETE, UPDATE, MERGE nodes): Delta needs its bare table
 *       there. A live filter already in a target (the {@code DeltaTable} API builds DML over its
 *       own, already analysed DataFrame) is taken out again. MERGE sources are ordinary reads.
 *   <li>RESTORE and CLONE, which copy whole tables.
 *   <li>Reads asking for every row: option {@code includeDeleted=true} ({@link
 *       TableContract#includeDeletedOption}; SQL: {@code WITH ('includeDeleted' = 'true')}), and
 *       change-feed reads.
 *   <li>The DataFrame of Delta's {@code DeltaTable} API ({@code DeltaTable.forName/forPath}), which
 *       is Delta's physical view of the table and the target of its DML builders.
 *   <li>Sessions of Weaver's engine ({@link EngineScope#isEngineSession}), and the engine's reads
 *       in the caller's session ({@link EngineScope#isEngineRead}).
 * </ul>
 *
 * <p>Option {@code minVersion=n} ({@link TableContract#minVersionOption}) fails the read when the
 * version read is older than {@code n} (never a silently stale answer). {@code format("weaver")}
 * placeholders ({@link TableContract#placeholder}) are replaced here by the catalog's Delta table,
 * keeping their output attributes.
 *
 * <p>Idempotent: every decided read gets a mark right above it — the live filter, or for an
 * all-rows read the always-true {@code 'weaver.allRows' = 'weaver.allRows'} (the optimizer removes
 * it) — recognised by its exact shape, so analysing a plan again, analysing a plan that holds an
 * already analysed DataFrame, or Delta's later V2-to-V1 rewrite of the read below a mark never adds
 * a second one.
 */
public final class ShowLiveRows extends Rule<LogicalPlan> {
  /** The live sentinel 9999-12-31 00:00:00 UTC in microseconds since the epoch. */
  public static final long LIVE_MICROS = 253_402_214_400_000_000L;

  /** The text of the all-rows mark, {@code Filter('weaver.allRows' = 'weaver.allRows')}. */
  private static final String ALL_ROWS = "weaver.allRows";

  private final SparkSession session;
  private final TableContract contract;
  private final EngineScope scope;

  public ShowLiveRows(SparkSession session, TableContract contract, EngineScope scope) {
    this.session = Objects.requireNonNull(session, "session");
    this.contract = Objects.requireNonNull(contract, "contract");
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (scope.isEngineSession(session) || !DeltaInternals.present()) {
      // Without open-source Delta's classes the rule cannot recognise a Delta read (the named
      // feature "live rows on read" is off there; docs/environments.md).
      return plan;
    }
    return rewrite(plan, false, scope.isEngineRead());
  }

  private LogicalPlan rewrite(LogicalPlan plan, boolean dmlTarget, boolean engine) {
    if (!dmlTarget && plan.analyzed()) {
      return plan; // a DataFrame analysed before (this rule ran on it then)
    }
    if (DeltaRelations.copiesWholeTable(plan)) {
      return plan;
    }
    if (isMark(plan)) {
      return dmlTarget ? ((Filter) plan).child() : plan;
    }
    if (plan instanceof DataSourceV2Relation v2) {
      Optional<TableContract.Placeholder> placeholder = contract.placeholder(v2.table());
      if (placeholder.isPresent()) {
        TableContract.Placeholder w = placeholder.get();
        plan =
            new DataSourceV2Relation(
                w.delta(),
                v2.output(),
                Option.apply(w.catalog()),
                Option.apply(w.identifier()),
                v2.options(),
                v2.timeTravelSpec());
      }
    }
    Optional<DeltaRelations.DeltaRead> read = DeltaRelations.read(plan);
    if (read.isPresent()) {
      return dmlTarget ? plan : liveRows(plan, read.get(), engine);
    }
    Optional<LogicalPlan> target = DeltaRelations.dmlTarget(plan);
    List<LogicalPlan> children = ScalaSeqs.toList(plan.children());
    List<LogicalPlan> rewritten = new ArrayList<>(children.size());
    boolean changed = false;
    for (LogicalPlan child : children) {
      boolean isTarget = dmlTarget || (target.isPresent() && target.get() == child);
      LogicalPlan next = rewrite(child, isTarget, engine);
      changed |= next != child;
      rewritten.add(next);
    }
    return changed ? plan.withNewChildren(ScalaSeqs.of(rewritten)) : plan;
  }

  /**
   * The read under its mark: the live filter, or the all-rows mark for a read that asks for every
   * row; as it is when it is not a Weaver table.
   */
  private LogicalPlan liveRows(
      LogicalPlan relation, DeltaRelations.DeltaRead read, boolean engine) {
    checkMinVersion(relation, read);
    if (!contract.isWeaverTable(read.properties())) {
      return relation;
    }
    if (DeltaRelations.deltaTableApiActive()) {
      // Delta's physical view: its MERGE builder needs the bare relation (a Filter, even the
      // all-rows mark, is a "partial scan" to Delta), and no mark is needed on an API DataFrame.
      return relation;
    }
    boolean all =
        engine
            || read.option(contract.includeDeletedOption())
                .map("true"::equalsIgnoreCase)
                .orElse(false)
            || read.option("readChangeFeed").map("true"::equalsIgnoreCase).orElse(false)
            || read.option("readChangeData").map("true"::equalsIgnoreCase).orElse(false);
    Optional<Attribute> deleteTime = deleteTime(relation);
    if (all || deleteTime.isEmpty()) {
      return new Filter(allRowsMark(), relation);
    }
    return new Filter(new EqualTo(deleteTime.get(), sentinel()), relation);
  }

  /** Always true (the optimizer folds it away); tells later analysis the read was decided. */
  private static Expression allRowsMark() {
    return new EqualTo(
        Literal.create(ALL_ROWS, DataTypes.StringType),
        Literal.create(ALL_ROWS, DataTypes.StringType));
  }

  private void checkMinVersion(LogicalPlan relation, DeltaRelations.DeltaRead read) {
    Optional<String> min = read.option(contract.minVersionOption());
    if (min.isEmpty()) {
      return;
    }
    long wanted;
    try {
      wanted = Long.parseLong(min.get().strip());
    } catch (NumberFormatException e) {
      throw SparkErrors.analysis(
          "Option "
              + contract.minVersionOption()
              + " of the read of "
              + tableName(read)
              + " must be a whole Delta version number (a load's delta_version), not '"
              + min.get()
              + "'.");
    }
    long version = read.version();
    Optional<Long> asOf =
        read.option("versionAsOf").flatMap(ShowLiveRows::parseLong).filter(v -> v < version);
    long seen = asOf.orElse(version);
    if (seen < wanted) {
      throw SparkErrors.analysis(
          "The read of "
              + tableName(read)
              + " asks for "
              + contract.minVersionOption()
              + "="
              + wanted
              + " but "
              + (asOf.isPresent()
                  ? "versionAsOf reads version " + seen
                  : "the table is at Delta version " + seen)
              + ": the load that produced version "
              + wanted
              + " is not visible here. Refusing to return stale rows; retry after that load"
              + " committed (SHOW WEAVER LOADS lists delta_version per load).");
    }
  }

  private static Optional<Long> parseLong(String text) {
    try {
      return Optional.of(Long.parseLong(text.strip()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private String tableName(DeltaRelations.DeltaRead read) {
    return contract
        .identity(read.properties())
        .map(identity -> "Weaver table " + identity)
        .orElse("the Delta table");
  }

  private Optional<Attribute> deleteTime(LogicalPlan relation) {
    return ScalaSeqs.toList(relation.output()).stream()
        .filter(a -> a.name().equals(contract.deleteTimeColumn()))
        .filter(a -> a.dataType().equals(DataTypes.TimestampType))
        .findFirst();
  }

  private static Literal sentinel() {
    return new Literal(LIVE_MICROS, DataTypes.TimestampType);
  }

  /**
   * One of this rule's marks right above a Delta read: the live filter (the read's delete time
   * equal to the sentinel literal) or the all-rows mark.
   */
  private boolean isMark(LogicalPlan plan) {
    if (!(plan instanceof Filter filter) || !(filter.condition() instanceof EqualTo eq)) {
      return false;
    }
    boolean live =
        eq.left() instanceof AttributeReference a
            && a.name().equals(contract.deleteTimeColumn())
            && eq.right() instanceof Literal l
            && l.dataType().equals(DataTypes.TimestampType)
            && Long.valueOf(LIVE_MICROS).equals(l.value());
    return (live || eq.semanticEquals(allRowsMark()))
        && DeltaRelations.read(filter.child()).isPresent();
  }
}
