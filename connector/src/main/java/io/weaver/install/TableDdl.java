package io.weaver.install;

import io.delta.tables.DeltaTable;
import io.delta.tables.DeltaTableBuilder;
import io.weaver.catalyst.signature.RowSignature;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.Notes;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.session.EngineSessions;
import io.weaver.session.WeaverConf;
import io.weaver.workspace.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * The physical side of Build: creates or replaces a Weaver Delta table (identity, business and
 * managed columns in the contract's order (docs/table-contract.md, "Managed columns"), NOT NULL
 * where required, comments, protocol minima, deletion vectors, Weaver's marker properties), adds
 * nullable columns in place, relaxes NOT NULL and re-signs rows. Uses Delta's builder API: SQL DDL
 * through the catalog refuses identity columns (docs/engine.md, "Build").
 */
final class TableDdl {
  private static final String DELETION_VECTORS_PROPERTY = "delta.enableDeletionVectors";
  private static final String DV_FEATURE = "deletionVectors";

  private final SparkSession spark;
  private final WorkspaceModel model;

  TableDdl(SparkSession spark, WorkspaceModel model) {
    this.spark = spark;
    this.model = model;
  }

  /** Creates (or, with {@code replace}, replaces in one commit) the table at {@code path}. */
  void create(
      String path,
      TableDeclaration t,
      TableShape shape,
      int minReader,
      int minWriter,
      boolean replace) {
    DeltaTableBuilder builder = replace ? DeltaTable.replace(spark) : DeltaTable.create(spark);
    builder =
        builder
            .location(path)
            .comment(t.description())
            .property(DELETION_VECTORS_PROPERTY, Boolean.toString(t.deltaDeletionVectors()))
            .property("delta.minReaderVersion", Integer.toString(minReader))
            .property("delta.minWriterVersion", Integer.toString(minWriter))
            .property(WeaverConf.TABLE_ID_PROPERTY, t.tableId().toString())
            .property(WeaverConf.ITEM_PROPERTY, t.item())
            .property(WeaverConf.MANAGED_PROPERTY, "true");
    if (t.identity().isPresent()) {
      builder =
          builder.addColumn(
              DeltaTable.columnBuilder(spark, t.identity().get())
                  .dataType(DataTypes.LongType)
                  .generatedAlwaysAsIdentity()
                  .nullable(false)
                  .comment("Weaver-generated surrogate key.")
                  .build());
    }
    for (BuiltColumn c : shape.columns()) {
      var column =
          DeltaTable.columnBuilder(spark, c.name()).dataType(c.type()).nullable(c.nullable());
      String note = Notes.resolve(model, t, c.name()).orElse(null);
      if (note != null) {
        column = column.comment(note);
      }
      builder = builder.addColumn(column.build());
    }
    for (String managed :
        List.of(
            ManagedColumns.INSERT_TIME, ManagedColumns.UPDATE_TIME, ManagedColumns.DELETE_TIME)) {
      builder =
          builder.addColumn(
              DeltaTable.columnBuilder(spark, managed)
                  .dataType(DataTypes.TimestampType)
                  .nullable(false)
                  .build());
    }
    if (Signatures.hasSignature(t)) {
      builder =
          builder.addColumn(
              DeltaTable.columnBuilder(spark, ManagedColumns.SIGNATURE)
                  .dataType(DataTypes.StringType)
                  .nullable(false)
                  .build());
    }
    builder.execute();
  }

  /** Adds nullable business columns in place (one commit), each after its declared predecessor. */
  void addColumns(String path, TableDeclaration t, TableShape shape, List<BuiltColumn> added) {
    List<String> parts = new ArrayList<>();
    for (BuiltColumn c : added) {
      int index = shape.names().indexOf(c.name());
      String position =
          index == 0
              ? t.identity().map(i -> " AFTER " + Identifiers.quote(i)).orElse(" FIRST")
              : " AFTER " + Identifiers.quote(shape.names().get(index - 1));
      String comment =
          Notes.resolve(model, t, c.name()).map(n -> " COMMENT " + literal(n)).orElse("");
      parts.add(Identifiers.quote(c.name()) + " " + c.type().sql() + comment + position);
    }
    spark.sql(
        "ALTER TABLE delta."
            + Identifiers.quote(path)
            + " ADD COLUMNS ("
            + String.join(", ", parts)
            + ")");
  }

  /** Drops NOT NULL from a column that became nullable. */
  void dropNotNull(String path, String column) {
    spark.sql(
        "ALTER TABLE delta."
            + Identifiers.quote(path)
            + " ALTER COLUMN "
            + Identifiers.quote(column)
            + " DROP NOT NULL");
  }

  /** Recomputes {@code row_signature} of every row in place (one commit); audit times untouched. */
  void resign(String path, List<String> comparisonColumns) {
    List<Column> columns = comparisonColumns.stream().map(functions::col).toList();
    // Re-signing updates every row, which the SQL extension's DML guards refuse for users: run it
    // in an engine session of its own.
    SparkSession writer = EngineSessions.open(spark);
    DeltaTable.forPath(writer, path)
        .update(Map.of(ManagedColumns.SIGNATURE, RowSignature.rowSignature(columns)));
  }

  /**
   * Whether the table's deletion vectors differ from the declaration: declared on but not enabled,
   * or declared off but enabled or still named in the protocol (readers without deletion-vector
   * support refuse a table whose protocol names the feature, even with none written).
   */
  boolean deletionVectorsDiffer(String path, TableDeclaration t) {
    Row detail = DeltaTable.forPath(spark, path).detail().head();
    scala.collection.Map<String, String> properties = detail.getAs("properties");
    boolean enabled =
        "true"
            .equalsIgnoreCase(
                scala.jdk.javaapi.CollectionConverters.asJava(properties)
                    .get(DELETION_VECTORS_PROPERTY));
    scala.collection.Seq<String> features = detail.getAs("tableFeatures");
    boolean inProtocol =
        scala.jdk.javaapi.CollectionConverters.asJava(features).contains(DV_FEATURE);
    return t.deltaDeletionVectors() ? !enabled : enabled || inProtocol;
  }

  /**
   * Turns deletion vectors on (new deletes may write them), or off for good: Delta's DROP FEATURE
   * disables them, rewrites the files that have deletion vectors (REORG ... APPLY (PURGE)) and
   * removes the feature from the protocol, so that readers without it can read the table; Delta
   * adds the checkpointProtection writer feature to keep older checkpoints from resurrecting it.
   */
  void deletionVectors(String path, boolean on) {
    // Like re-signing, a table rewrite the SQL extension's guards refuse in a user's session.
    SparkSession writer = EngineSessions.open(spark);
    String table = "delta." + Identifiers.quote(path);
    if (on) {
      writer.sql(
          "ALTER TABLE "
              + table
              + " SET TBLPROPERTIES ('"
              + DELETION_VECTORS_PROPERTY
              + "' = 'true')");
    } else {
      writer.sql("ALTER TABLE " + table + " DROP FEATURE " + DV_FEATURE);
    }
  }

  static String literal(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
