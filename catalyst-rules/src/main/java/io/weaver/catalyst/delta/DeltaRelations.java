package io.weaver.catalyst.delta;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.plans.logical.CloneTableStatement;
import org.apache.spark.sql.catalyst.plans.logical.DeleteFromTable;
import org.apache.spark.sql.catalyst.plans.logical.DeltaDelete;
import org.apache.spark.sql.catalyst.plans.logical.DeltaMergeInto;
import org.apache.spark.sql.catalyst.plans.logical.DeltaUpdateTable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeIntoTable;
import org.apache.spark.sql.catalyst.plans.logical.RestoreTableStatement;
import org.apache.spark.sql.catalyst.plans.logical.UpdateTable;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.catalog.DeltaTableV2;
import org.apache.spark.sql.delta.files.TahoeLogFileIndex;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads what Weaver's read rule needs from the two forms a Delta table read takes during analysis:
 * Delta's V2 table ({@code DataSourceV2Relation(DeltaTableV2)}), which resolution produces first,
 * and the V1 relation Delta's own analysis rule turns it into ({@code
 * LogicalRelation(HadoopFsRelation(TahoeLogFileIndex))}). Delta's internal reads of single files
 * (MERGE, UPDATE, DELETE and OPTIMIZE rewriting files) use other file indexes and are never
 * matched. Also names Delta's DML and statement plan nodes. Delta's internal classes stay in this
 * class.
 */
public final class DeltaRelations {
  private DeltaRelations() {}

  /**
   * A user-visible read of a Delta table.
   *
   * @param properties the table's properties (Delta configuration) at the version read
   * @param options the read options (table options of SQL's {@code WITH (…)}, reader options)
   * @param version the table version the read sees
   */
  public record DeltaRead(
      Map<String, String> properties, Map<String, String> options, long version) {
    /** A read option, matched without regard to case (Spark's options are case-insensitive). */
    public Optional<String> option(String name) {
      return options.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(Map.Entry::getValue)
          .findFirst();
    }
  }

  /** The Delta read {@code plan} is, when it is a leaf reading a Delta table. */
  public static Optional<DeltaRead> read(LogicalPlan plan) {
    if (plan instanceof DataSourceV2Relation v2 && v2.table() instanceof DeltaTableV2 delta) {
      Snapshot snapshot;
      try {
        snapshot = delta.initialSnapshot();
      } catch (RuntimeException notATable) {
        return Optional.empty(); // a path with no table yet (CREATE …): nothing to read
      }
      Map<String, String> options = new HashMap<>(CollectionConverters.asJava(delta.options()));
      options.putAll(v2.options().asCaseSensitiveMap());
      return Optional.of(
          new DeltaRead(
              Map.copyOf(CollectionConverters.asJava(snapshot.metadata().configuration())),
              Map.copyOf(options),
              snapshot.version()));
    }
    if (plan instanceof LogicalRelation logical
        && logical.relation() instanceof HadoopFsRelation fs
        && fs.location() instanceof TahoeLogFileIndex index) {
      // The snapshot the read was analysed with (no log listing here).
      return Optional.of(
          new DeltaRead(
              Map.copyOf(CollectionConverters.asJava(index.metadata().configuration())),
              Map.copyOf(CollectionConverters.asJava(fs.options())),
              index.version()));
    }
    return Optional.empty();
  }

  /**
   * The target of a DML plan (Spark's and Delta's DELETE, UPDATE and MERGE nodes), which must stay
   * a plain Delta relation for Delta to run the statement.
   */
  public static Optional<LogicalPlan> dmlTarget(LogicalPlan plan) {
    if (plan instanceof DeleteFromTable d) {
      return Optional.of(d.table());
    }
    if (plan instanceof UpdateTable u) {
      return Optional.of(u.table());
    }
    if (plan instanceof MergeIntoTable m) {
      return Optional.of(m.targetTable());
    }
    if (plan instanceof DeltaDelete d) {
      return Optional.of(d.child());
    }
    if (plan instanceof DeltaUpdateTable u) {
      return Optional.of(u.child());
    }
    if (plan instanceof DeltaMergeInto m) {
      return Optional.of(m.target());
    }
    return Optional.empty();
  }

  /** Statements that copy or restore a whole table (every row, deleted ones included). */
  public static boolean copiesWholeTable(LogicalPlan plan) {
    return plan instanceof RestoreTableStatement || plan instanceof CloneTableStatement;
  }
}
