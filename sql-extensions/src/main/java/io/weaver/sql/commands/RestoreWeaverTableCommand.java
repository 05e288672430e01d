package io.weaver.sql.commands;

import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.load.restore.LoadRestore;
import io.weaver.sql.plans.TableIdentity;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code RESTORE WEAVER TABLE id TO LOAD 'load_id'}: restores the Delta table to the version
 * that load produced and rolls {@code _.LoadState} (bookmark included) back to it, so the next load
 * behaves as if the later loads never happened (docs/table-contract.md, "Guarantees"). Writes a
 * {@code restored} history row.
 */
public final class RestoreWeaverTableCommand extends WeaverStatement {
  /**
   * {@code restore_id} (the history row's id), {@code table_id}, {@code restored_to_load_id},
   * {@code restored_to_version} (the version the load produced), {@code delta_version} (the table's
   * version after the restore), {@code bookmark} (the restored bookmark), {@code message}.
   */
  public static final StructType SCHEMA =
      new StructType()
          .add("restore_id", DataTypes.StringType, false)
          .add("table_id", DataTypes.StringType, false)
          .add("restored_to_load_id", DataTypes.StringType, false)
          .add("restored_to_version", DataTypes.LongType, false)
          .add("delta_version", DataTypes.LongType, false)
          .add("bookmark", DataTypes.StringType, true)
          .add("message", DataTypes.StringType, false);

  private final TableIdentity table;
  private final String loadId;

  public RestoreWeaverTableCommand(TableIdentity table, String loadId) {
    this(table, loadId, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public RestoreWeaverTableCommand(TableIdentity table, String loadId, Seq<Attribute> output) {
    super(output);
    this.table = Objects.requireNonNull(table, "table");
    this.loadId = Objects.requireNonNull(loadId, "loadId");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "RESTORE WEAVER TABLE " + table;
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    LoadRestore.Result r =
        WorkspaceAccess.call(statement, () -> weaver.restore(WorkspaceAccess.scope(table), loadId));
    return List.of(
        CatalogueRowBuilder.of("RESTORE WEAVER TABLE", SCHEMA)
            .set("restore_id", r.restoreId())
            .set("table_id", r.tableId())
            .set("restored_to_load_id", r.toLoadId())
            .set("restored_to_version", r.toVersion())
            .set("delta_version", r.deltaVersion())
            .set("bookmark", r.bookmark().orElse(null))
            .set("message", r.message())
            .build());
  }

  @Override
  public List<Object> arguments() {
    return List.of(table, loadId);
  }
}
