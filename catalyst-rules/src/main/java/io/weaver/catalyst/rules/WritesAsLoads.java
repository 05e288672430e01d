package io.weaver.catalyst.rules;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.AppendData;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.OverwriteByExpression;
import org.apache.spark.sql.catalyst.plans.logical.OverwritePartitionsDynamic;
import org.apache.spark.sql.catalyst.plans.logical.V2WriteCommand;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.types.StructField;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * Writes become loads (docs/table-contract.md, "DataFrame API"): an append to a Weaver table —
 * {@code df.write.format("weaver").mode("append").save(id)}, {@code df.writeTo(id).append()},
 * {@code df.write.mode("append").saveAsTable(id)}, {@code INSERT INTO id …} — is replaced by the
 * command {@link LoadCommands} builds (the session extension's {@code DataFrameLoadCommand}): a
 * Load of that Table with the written rows as staging. Other writes (overwrite, dynamic partition
 * overwrite, {@code INSERT OVERWRITE}) are refused with a message that says what to use.
 *
 * <p>A Weaver table here is a named table (a catalog relation) whose properties say {@code
 * weaver.managed=true} ({@link TableContract#isWeaverTable}) and carry its identity, or a {@code
 * format("weaver")} placeholder ({@link TableContract#placeholder}). Path-based Delta writes
 * ({@code format("delta").save(path)}) stay plain Delta writes, and so do writes in the engine's
 * own sessions ({@link EngineScope#isEngineSession}).
 */
public final class WritesAsLoads extends Rule<LogicalPlan> {
  private final SparkSession session;
  private final TableContract contract;
  private final EngineScope scope;
  private final LoadCommands loads;

  public WritesAsLoads(
      SparkSession session, TableContract contract, EngineScope scope, LoadCommands loads) {
    this.session = Objects.requireNonNull(session, "session");
    this.contract = Objects.requireNonNull(contract, "contract");
    this.scope = Objects.requireNonNull(scope, "scope");
    this.loads = Objects.requireNonNull(loads, "loads");
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (scope.isEngineSession(session)) {
      return plan;
    }
    return plan.resolveOperatorsDown(new ToLoad());
  }

  /** The Weaver table a write goes to, if it goes to one. */
  private record WeaverTarget(String identity, DataSourceV2Relation relation) {}

  private Optional<WeaverTarget> target(V2WriteCommand write) {
    if (!(write.table() instanceof DataSourceV2Relation relation)) {
      return Optional.empty();
    }
    Table table = relation.table();
    Optional<TableContract.Placeholder> placeholder = contract.placeholder(table);
    if (placeholder.isPresent()) {
      return Optional.of(new WeaverTarget(placeholder.get().identity(), relation));
    }
    Map<String, String> properties = table.properties();
    if (relation.catalog().isEmpty() || !contract.isWeaverTable(properties)) {
      return Optional.empty();
    }
    return contract.identity(properties).map(identity -> new WeaverTarget(identity, relation));
  }

  LogicalPlan rewrite(V2WriteCommand write) {
    Optional<WeaverTarget> target = target(write);
    if (target.isEmpty() || !write.query().resolved()) {
      return (LogicalPlan) write;
    }
    String identity = target.get().identity();
    if (!(write instanceof AppendData append)) {
      if (!(write instanceof OverwriteByExpression
          || write instanceof OverwritePartitionsDynamic)) {
        return (LogicalPlan) write;
      }
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_OVERWRITE_REFUSED,
          "Writing to the Weaver table "
              + identity
              + " with "
              + ((LogicalPlan) write).nodeName()
              + " (overwrite, INSERT OVERWRITE, partition overwrite) is refused: Weaver tables"
              + " change only through loads, which compare the new rows with the table by key."
              + " Use mode(\"append\") / writeTo(…).append() / INSERT INTO — a load whose rows are"
              + " the Table's new snapshot (keys not in it are soft-deleted unless the Table is"
              + " incremental) — or LOAD WEAVER TABLE "
              + identity
              + ".",
          ErrorFacts.of(
              ErrorParameter.TABLE,
              identity,
              ErrorParameter.OPERATION,
              ((LogicalPlan) write).nodeName()));
    }
    boolean waive =
        option(CollectionConverters.asJava(append.writeOptions()))
            .or(() -> option(target.get().relation().options().asCaseSensitiveMap()))
            .map(v -> v.strip().equalsIgnoreCase("true"))
            .orElse(false);
    List<String> positional =
        append.isByName() ? List.of() : businessColumns(target.get().relation());
    return loads.load(identity, append.query(), waive, positional);
  }

  private Optional<String> option(Map<String, String> options) {
    return options.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(contract.waiveStabilityGatesOption()))
        .map(Map.Entry::getValue)
        .findFirst();
  }

  private List<String> businessColumns(DataSourceV2Relation relation) {
    return businessColumns(relation.table(), contract);
  }

  /**
   * A Weaver table's business columns in table order (no managed column, no identity column): the
   * columns a by-position {@code INSERT INTO id VALUES …} writes.
   */
  public static List<String> businessColumns(Table table, TableContract contract) {
    List<String> managed = contract.managedColumns();
    List<String> names = new ArrayList<>();
    @SuppressWarnings("deprecation")
    StructField[] fields = table.schema().fields();
    for (StructField f : fields) {
      if (!managed.contains(f.name())
          && !f.metadata().contains(GuardWeaverTables.IDENTITY_METADATA)) {
        names.add(f.name());
      }
    }
    return names;
  }

  private final class ToLoad extends AbstractPartialFunction<LogicalPlan, LogicalPlan> {
    @Override
    public boolean isDefinedAt(LogicalPlan plan) {
      return plan instanceof V2WriteCommand;
    }

    @Override
    public <A1 extends LogicalPlan, B1> B1 applyOrElse(A1 plan, Function1<A1, B1> orElse) {
      if (plan instanceof V2WriteCommand write) {
        @SuppressWarnings("unchecked")
        B1 rewritten = (B1) rewrite(write);
        return rewritten;
      }
      return orElse.apply(plan);
    }
  }
}
