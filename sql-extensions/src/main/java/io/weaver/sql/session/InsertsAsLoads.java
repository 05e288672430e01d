package io.weaver.sql.session;

import io.weaver.catalyst.compat.ScalaSeqs;
import io.weaver.catalyst.rules.EngineScope;
import io.weaver.catalyst.rules.TableContract;
import io.weaver.catalyst.rules.WritesAsLoads;
import io.weaver.sql.commands.DataFrameLoadCommand;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;

/**
 * An SQL {@code INSERT INTO <Item>.<Schema>.<Object> …} of a Weaver table becomes its load when the
 * statement is parsed (docs/dataframe-api.md, "Appends are loads"), before any analysis rule sees
 * it. {@code WritesAsLoads} turns the same append into the same load during analysis, but only when
 * Weaver's extension is listed before Delta's: with Delta's first, Delta's INSERT check runs first
 * and refused the missing managed columns ({@code DELTA_INSERT_COLUMN_ARITY_MISMATCH}). Overwrites,
 * partition specs and every other table are left to the analyser (which refuses overwrites of a
 * Weaver table with what to use).
 */
public final class InsertsAsLoads {
  private final SparkSession session;
  private final TableContract contract;
  private final EngineScope scope;

  public InsertsAsLoads(SparkSession session, TableContract contract, EngineScope scope) {
    this.session = session;
    this.contract = contract;
    this.scope = scope;
  }

  /** {@code plan}, or the load it is when it is an append by name to a Weaver table. */
  public LogicalPlan apply(LogicalPlan plan) {
    if (!(plan instanceof InsertIntoStatement insert)
        || insert.overwrite()
        || !insert.partitionSpec().isEmpty()
        || !(insert.table() instanceof UnresolvedRelation target)
        || scope.isEngineSession(session)) {
      return plan;
    }
    Optional<Table> table = weaverTable(ScalaSeqs.toList(target.multipartIdentifier()));
    if (table.isEmpty()) {
      return plan;
    }
    Optional<String> identity = contract.identity(table.get().properties());
    if (identity.isEmpty()) {
      return plan;
    }
    List<String> named = ScalaSeqs.toList(insert.userSpecifiedCols());
    List<String> positional =
        insert.byName()
            ? List.of()
            : named.isEmpty() ? WritesAsLoads.businessColumns(table.get(), contract) : named;
    boolean waive =
        "true"
            .equalsIgnoreCase(
                Optional.ofNullable(target.options().get(contract.waiveStabilityGatesOption()))
                    .orElse("")
                    .strip());
    return new DataFrameLoadCommand(identity.get(), insert.query(), waive, positional);
  }

  /** The Weaver table a name written in this session stands for, if it is one of an item. */
  private Optional<Table> weaverTable(List<String> name) {
    String catalog;
    List<String> rest;
    if (name.size() == 3) {
      catalog = name.get(0);
      rest = name.subList(1, 3);
    } else if (name.size() == 2) {
      catalog = session.sessionState().catalogManager().currentCatalog().name();
      rest = name;
    } else {
      return Optional.empty();
    }
    if (!contract.isItemCatalog(session, catalog)) {
      return Optional.empty();
    }
    try {
      CatalogPlugin plugin = session.sessionState().catalogManager().catalog(catalog);
      Table table =
          ((TableCatalog) plugin).loadTable(Identifier.of(new String[] {rest.get(0)}, rest.get(1)));
      return contract.isWeaverTable(table.properties()) ? Optional.of(table) : Optional.empty();
    } catch (Exception notATable) {
      return Optional.empty(); // the analyser reports a missing table with Spark's own message
    }
  }
}
