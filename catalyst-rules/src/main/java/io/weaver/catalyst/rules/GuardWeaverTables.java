package io.weaver.catalyst.rules;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.ScalaSeqs;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.catalyst.delta.DeltaDml;
import io.weaver.catalyst.delta.DeltaInternals;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.StructField;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * The DML guards (docs/table-contract.md, "Guarantees"), as a check rule: on a Weaver table (a
 * Delta table marked {@code weaver.managed=true}, {@link TableContract#isWeaverTable}; Build marks
 * every Table it creates), an UPDATE or MERGE that assigns a managed column ({@code
 * row_insert_datetime}, {@code row_update_datetime}, {@code row_delete_datetime}, {@code
 * row_signature}: {@link TableContract#managedColumns}; the identity column) and an UPDATE or
 * DELETE without a WHERE clause are refused before anything is written.
 *
 * <p>Delta turns DML into its own commands during resolution, so the rule looks at those (see
 * {@link DeltaDml}); that catches SQL through an item catalog, path-based SQL and the {@code
 * DeltaTable} API alike. Weaver's engine writes through sessions of its own ({@link
 * EngineScope#isEngineSession}), which the rule lets through.
 */
public final class GuardWeaverTables implements Function1<LogicalPlan, BoxedUnit> {
  /** The field metadata key Delta gives an identity column. */
  static final String IDENTITY_METADATA = "delta.identity.start";

  private final SparkSession session;
  private final TableContract contract;
  private final EngineScope scope;

  public GuardWeaverTables(SparkSession session, TableContract contract, EngineScope scope) {
    this.session = Objects.requireNonNull(session, "session");
    this.contract = Objects.requireNonNull(contract, "contract");
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  @Override
  public BoxedUnit apply(LogicalPlan plan) {
    // Without open-source Delta's classes there are no Delta commands to recognise: the guards are
    // off on such a runtime (docs/environments.md), never by a setting.
    if (!scope.isEngineSession(session) && DeltaInternals.present()) {
      check(plan);
    }
    return BoxedUnit.UNIT;
  }

  private void check(LogicalPlan plan) {
    DeltaDml.of(plan).ifPresent(this::check);
    for (LogicalPlan child : ScalaSeqs.toList(plan.children())) {
      check(child);
    }
  }

  void check(DeltaDml.Write write) {
    Map<String, String> properties = write.properties();
    if (!contract.isWeaverTable(properties)) {
      return;
    }
    String table = tableName(write);
    if (write.unconditional()) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_DML_WITHOUT_WHERE,
          write.operation()
              + " without a WHERE clause on the Weaver table "
              + table
              + " is refused: it would "
              + (write.operation().equals("DELETE")
                  ? "remove every row, history included, instead of Weaver's soft delete"
                  : "rewrite every row")
              + ". Add a WHERE clause, or change the rows through LOAD WEAVER TABLE "
              + table
              + ".",
          ErrorFacts.of(ErrorParameter.TABLE, table, ErrorParameter.OPERATION, write.operation()));
    }
    Set<String> managed = new TreeSet<>();
    List<String> protectedColumns = protectedColumns(write);
    for (String column : write.assignedColumns()) {
      if (protectedColumns.stream().anyMatch(column::equalsIgnoreCase)) {
        managed.add(column);
      }
    }
    if (!managed.isEmpty()) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_DML_MANAGED_COLUMNS,
          write.operation()
              + " on the Weaver table "
              + table
              + " assigns the managed column(s) "
              + String.join(", ", managed)
              + ", which only Weaver's loads may write. Assign business columns only, or change"
              + " the rows through LOAD WEAVER TABLE "
              + table
              + ".",
          ErrorFacts.of(
              ErrorParameter.TABLE,
              table,
              ErrorParameter.OPERATION,
              write.operation(),
              ErrorParameter.COLUMN,
              String.join(", ", managed)));
    }
  }

  /** The managed audit and signature columns, and the identity column when there is one. */
  private List<String> protectedColumns(DeltaDml.Write write) {
    List<String> names = new ArrayList<>(contract.managedColumns());
    for (StructField field : write.schema().fields()) {
      if (field.metadata().contains(IDENTITY_METADATA)) {
        names.add(field.name());
      }
    }
    return names;
  }

  /** {@code Item.Schema.Object} from Build's markers, else the table's path. */
  private String tableName(DeltaDml.Write write) {
    return contract.identity(write.properties()).orElse(write.path());
  }
}
