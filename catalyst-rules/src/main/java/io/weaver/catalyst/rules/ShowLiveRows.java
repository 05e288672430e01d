package io.weaver.catalyst.rules;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.ScalaSeqs;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.SparkLine;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.catalyst.delta.DeltaInternals;
import io.weaver.catalyst.delta.DeltaRelations;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Live rows on read (docs/dataframe-api.md, "Live rows on read"). The rule, in one sentence: <b>a
 * read by Weaver name — an item catalog's {@code <Item>.<Schema>.<Object>} or {@code
 * format("weaver")} — returns the live rows of a Weaver table unless it asks for every row; every
 * other read, by path ({@code delta.`…`}, {@code format("delta").load}, {@code DeltaTable.forPath})
 * or Delta's own, is Delta's read of every row.</b>
 *
 * <p>What is a read by name is decided before Spark resolves names ({@link MarkNameReads} marks
 * them), so it does not depend on the order of {@code spark.sql.extensions}, on the thread, or on
 * who calls; this rule decides each marked read once its name has resolved: a Delta table marked
 * {@code weaver.managed=true} ({@link TableContract#isWeaverTable}) gets {@code row_delete_datetime
 * = 9999-12-31 00:00:00 UTC} right above its relation, or the all-rows mark when the read asked for
 * every row (option {@code includeDeleted=true}, {@link TableContract#includeDeletedOption}, or a
 * change feed); anything else (a view, another format) loses the mark. {@code format("weaver")}
 * placeholders ({@link TableContract#placeholder}) are replaced here by the catalog's Delta table,
 * keeping their output attributes, and decided the same way.
 *
 * <p>Option {@code minVersion=n} ({@link TableContract#minVersionOption}) of a read by name fails
 * the read when the version read is older than {@code n} (never a silently stale answer).
 *
 * <p>DML targets lose their marks here too (see {@link MarkNameReads}); RESTORE and CLONE copy
 * whole tables and are left alone; sessions of Weaver's engine ({@link
 * EngineScope#isEngineSession}) are left alone.
 *
 * <p>Idempotent: a decided read carries one of {@link LiveMarks}' marks, recognised by its exact
 * shape, so analysing a plan again, analysing a plan that holds an already analysed DataFrame, or
 * Delta's later V2-to-V1 rewrite of the read below a mark never adds a second one.
 */
public final class ShowLiveRows extends Rule<LogicalPlan> {
  /** The live sentinel 9999-12-31 00:00:00 UTC in microseconds since the epoch. */
  public static final long LIVE_MICROS = LiveMarks.LIVE_MICROS;

  private final SparkSession session;
  private final TableContract contract;
  private final EngineScope scope;
  private final LiveMarks marks;

  public ShowLiveRows(SparkSession session, TableContract contract, EngineScope scope) {
    this.session = Objects.requireNonNull(session, "session");
    this.contract = Objects.requireNonNull(contract, "contract");
    this.scope = Objects.requireNonNull(scope, "scope");
    this.marks = new LiveMarks(contract);
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (scope.isEngineSession(session) || !DeltaInternals.present()) {
      // Without open-source Delta's classes the rule cannot recognise a Delta read (the named
      // feature "live rows on read" is off there; docs/environments.md).
      return plan;
    }
    return rewrite(plan, false);
  }

  private LogicalPlan rewrite(LogicalPlan plan, boolean dmlTarget) {
    if (!dmlTarget && plan.analyzed()) {
      return plan; // a DataFrame analysed before (this rule ran on it then)
    }
    if (DeltaRelations.copiesWholeTable(plan)) {
      return plan;
    }
    if (marks.isMark(plan)) {
      return dmlTarget ? ((Filter) plan).child() : plan;
    }
    Optional<NameRead> byName = NameRead.markedBy(plan);
    if (byName.isPresent()) {
      LogicalPlan named = ((Filter) plan).child();
      return named.resolved() ? decide(named, byName.get()) : plan;
    }
    Optional<NameRead> unmarked = dmlTarget ? Optional.empty() : unmarkedNameRead(plan);
    if (unmarked.isPresent()) {
      return decide(plan, unmarked.get());
    }
    if (plan instanceof DataSourceV2Relation v2) {
      Optional<TableContract.Placeholder> placeholder = contract.placeholder(v2.table());
      if (placeholder.isPresent()) {
        TableContract.Placeholder w = placeholder.get();
        DataSourceV2Relation delta = SparkLine.readOf(v2, w.delta(), w.catalog(), w.identifier());
        return decide(delta, NameRead.of(v2.options(), contract));
      }
    }
    Optional<LogicalPlan> target = DeltaRelations.dmlTarget(plan);
    List<LogicalPlan> children = ScalaSeqs.toList(plan.children());
    List<LogicalPlan> rewritten = new ArrayList<>(children.size());
    boolean changed = false;
    for (LogicalPlan child : children) {
      boolean isTarget = dmlTarget || (target.isPresent() && target.get() == child);
      LogicalPlan next = rewrite(child, isTarget);
      changed |= next != child;
      rewritten.add(next);
    }
    return changed ? plan.withNewChildren(ScalaSeqs.of(rewritten)) : plan;
  }

  /**
   * A read by Weaver name that {@link MarkNameReads} did not mark, recognised in its resolved form:
   * the alias {@code <Item>.<Schema>.<Object>} that Spark's name resolution puts directly above a
   * table of an item catalog, over a Delta read. Spark skips injected hint-resolution rules in
   * sessions with Hive support ({@code HiveSessionStateBuilder}'s analyser has none), which is the
   * CLI's default session and a Hive-backed notebook's; without this, those sessions returned every
   * row by name. The read's options come from the relation (with Delta's extension listed first,
   * Delta's V1 relation may no longer carry them: docs/dataframe-api.md).
   */
  private Optional<NameRead> unmarkedNameRead(LogicalPlan plan) {
    if (!(plan instanceof SubqueryAlias alias)) {
      return Optional.empty();
    }
    List<String> qualifier = ScalaSeqs.toList(alias.identifier().qualifier());
    if (qualifier.size() != 2 || !contract.isItemCatalog(session, qualifier.get(0))) {
      return Optional.empty();
    }
    return DeltaRelations.read(alias.child())
        .map(read -> NameRead.of(new CaseInsensitiveStringMap(read.options()), contract));
  }

  /**
   * The resolved read {@code named} under its decided mark: through the aliases resolution put
   * above it, the Delta relation gets the live filter or the all-rows mark; a read that is not of a
   * Weaver table is returned as it is.
   */
  private LogicalPlan decide(LogicalPlan named, NameRead read) {
    if (named instanceof SubqueryAlias alias) {
      LogicalPlan child = decide(alias.child(), read);
      return child == alias.child() ? alias : alias.withNewChildren(ScalaSeqs.of(List.of(child)));
    }
    if (marks.isMark(named)) {
      return named;
    }
    Optional<DeltaRelations.DeltaRead> delta = DeltaRelations.read(named);
    if (delta.isEmpty()) {
      return named;
    }
    checkMinVersion(delta.get(), read.minVersion());
    if (!contract.isWeaverTable(delta.get().properties())) {
      return named;
    }
    Optional<AttributeReference> deleteTime = deleteTime(named);
    if (read.allRows() || deleteTime.isEmpty()) {
      return LiveMarks.allRows(named);
    }
    return LiveMarks.live(deleteTime.get(), named);
  }

  private void checkMinVersion(DeltaRelations.DeltaRead read, Optional<String> min) {
    if (min.isEmpty()) {
      return;
    }
    long wanted;
    try {
      wanted = Long.parseLong(min.get().strip());
    } catch (NumberFormatException e) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_MIN_VERSION_INVALID,
          "Option "
              + contract.minVersionOption()
              + " of the read of "
              + tableName(read)
              + " must be a whole Delta version number (a load's delta_version), not '"
              + min.get()
              + "'.",
          ErrorFacts.of(
              ErrorParameter.TABLE,
              tableName(read),
              ErrorParameter.OPTION,
              contract.minVersionOption(),
              ErrorParameter.VALUE,
              min.get()));
    }
    long version = read.version();
    Optional<Long> asOf =
        read.option("versionAsOf").flatMap(ShowLiveRows::parseLong).filter(v -> v < version);
    long seen = asOf.orElse(version);
    if (seen < wanted) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_MIN_VERSION_NOT_VISIBLE,
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
              + " committed (SHOW WEAVER LOADS lists delta_version per load).",
          ErrorFacts.of(
              ErrorParameter.TABLE,
              tableName(read),
              ErrorParameter.OPTION,
              contract.minVersionOption(),
              ErrorParameter.VERSION,
              wanted));
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

  private Optional<AttributeReference> deleteTime(LogicalPlan relation) {
    return ScalaSeqs.toList(relation.output()).stream()
        .filter(a -> a.name().equals(contract.deleteTimeColumn()))
        .filter(a -> a.dataType().equals(DataTypes.TimestampType))
        .filter(AttributeReference.class::isInstance)
        .map(AttributeReference.class::cast)
        .findFirst();
  }
}
