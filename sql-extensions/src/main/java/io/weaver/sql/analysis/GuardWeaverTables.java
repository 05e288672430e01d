package io.weaver.sql.analysis;

import io.weaver.metadata.ManagedColumns;
import io.weaver.session.WeaverConf;
import io.weaver.sql.compat.DeltaDml;
import io.weaver.sql.compat.ScalaSeqs;
import io.weaver.sql.compat.SparkErrors;
import io.weaver.workspace.Target;
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
 * The DML guards (docs/table-contract.md, "Guarantees"), as a check rule: on a Delta table marked
 * {@code weaver.managed=true} (Build marks every Table it creates), an UPDATE or MERGE that assigns
 * a managed column ({@code row_insert_datetime}, {@code row_update_datetime}, {@code
 * row_delete_datetime}, {@code row_signature}, the identity column) and an UPDATE or DELETE without
 * a WHERE clause are refused before anything is written.
 *
 * <p>Delta turns DML into its own commands during resolution, so the rule looks at those (see
 * {@link DeltaDml}); that catches SQL through an item catalog, path-based SQL and the {@code
 * DeltaTable} API alike. Weaver's engine writes through sessions marked with {@link
 * WeaverConf#INTERNAL_WRITE}, which the rule lets through.
 */
public final class GuardWeaverTables implements Function1<LogicalPlan, BoxedUnit> {
  /** The field metadata key Delta gives an identity column. */
  static final String IDENTITY_METADATA = "delta.identity.start";

  private final SparkSession session;

  public GuardWeaverTables(SparkSession session) {
    this.session = Objects.requireNonNull(session, "session");
  }

  @Override
  public BoxedUnit apply(LogicalPlan plan) {
    if (!"true".equalsIgnoreCase(session.conf().get(WeaverConf.INTERNAL_WRITE, "false"))) {
      check(plan);
    }
    return BoxedUnit.UNIT;
  }

  private static void check(LogicalPlan plan) {
    DeltaDml.of(plan).ifPresent(GuardWeaverTables::check);
    for (LogicalPlan child : ScalaSeqs.toList(plan.children())) {
      check(child);
    }
  }

  static void check(DeltaDml.Write write) {
    Map<String, String> properties = write.properties();
    if (!"true".equalsIgnoreCase(properties.get(WeaverConf.MANAGED_PROPERTY))) {
      return;
    }
    String table = tableName(write);
    if (write.unconditional()) {
      throw SparkErrors.analysis(
          write.operation()
              + " without a WHERE clause on the Weaver table "
              + table
              + " is refused: it would "
              + (write.operation().equals("DELETE")
                  ? "remove every row, history included, instead of Weaver's soft delete"
                  : "rewrite every row")
              + ". Add a WHERE clause, or change the rows through LOAD WEAVER TABLE "
              + table
              + ".");
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
          write.operation()
              + " on the Weaver table "
              + table
              + " assigns the managed column(s) "
              + String.join(", ", managed)
              + ", which only Weaver's loads may write. Assign business columns only, or change"
              + " the rows through LOAD WEAVER TABLE "
              + table
              + ".");
    }
  }

  /** The managed audit and signature columns, and the identity column when there is one. */
  private static List<String> protectedColumns(DeltaDml.Write write) {
    List<String> names = new java.util.ArrayList<>(ManagedColumns.names(Target.LAKEHOUSE));
    for (StructField field : write.schema().fields()) {
      if (field.metadata().contains(IDENTITY_METADATA)) {
        names.add(field.name());
      }
    }
    return names;
  }

  /** {@code Item.Schema.Object} from Build's markers, else the table's path. */
  private static String tableName(DeltaDml.Write write) {
    String item = write.properties().get(WeaverConf.ITEM_PROPERTY);
    String id = write.properties().get(WeaverConf.TABLE_ID_PROPERTY);
    return item != null && id != null ? item + "." + id : write.path();
  }
}
