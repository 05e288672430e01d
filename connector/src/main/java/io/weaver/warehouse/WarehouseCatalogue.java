package io.weaver.warehouse;

import io.weaver.catalogue.CatalogueTable;
import io.weaver.install.CatalogueColumn;
import io.weaver.install.CatalogueRows;
import io.weaver.install.Signatures;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceModel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * The catalogue rows of one Warehouse Table, as the statements Build runs in one transaction after
 * the Table's DDL and procedures: its {@code _.TableDictionary}, {@code _.ColumnDictionary}, {@code
 * _.KeyDictionary}, {@code _.ForeignKeyDictionary}, {@code _.Dependency} and {@code _.Registry}
 * rows replaced, and (with a load procedure) its {@code _.LoadState} row created at sequence 0 when
 * missing. Build ({@link WarehouseBuilder}) and {@code weaver tsql} ({@link WarehouseScript#build})
 * both take them from here.
 */
final class WarehouseCatalogue {
  private WarehouseCatalogue() {}

  /** The Table's columns as the catalogue records them. */
  static List<CatalogueColumn> shape(WarehouseTable table) {
    return table.columns().stream()
        .map(c -> new CatalogueColumn(c.name(), c.type(), c.nullable()))
        .toList();
  }

  /** The declaration signature {@code _.Registry} records, which Build compares with. */
  static String signature(WarehouseTable table, List<WorkspaceDependencies.Edge> edges) {
    return Signatures.declaration(table.declaration(), shape(table), edges);
  }

  /** The statements, in order; Build runs them in one transaction. */
  static List<String> statements(
      WorkspaceModel model,
      WarehouseTable table,
      List<WorkspaceDependencies.Edge> edges,
      Instant now) {
    TableDeclaration t = table.declaration();
    List<CatalogueColumn> shape = shape(table);
    String signature = signature(table, edges);
    List<String> names = shape.stream().map(CatalogueColumn::name).toList();
    String id = table.tableId();
    List<String> statements = new ArrayList<>();
    statements.addAll(
        CatalogueInserts.replace(
            CatalogueTable.TABLE_DICTIONARY,
            "table_id",
            id,
            List.of(CatalogueRows.tableDictionary(t, names, null, null, signature, now))));
    statements.addAll(
        CatalogueInserts.replace(
            CatalogueTable.COLUMN_DICTIONARY,
            "table_id",
            id,
            CatalogueRows.columnDictionary(model, t, shape)));
    statements.addAll(
        CatalogueInserts.replace(
            CatalogueTable.KEY_DICTIONARY, "table_id", id, CatalogueRows.keyDictionary(t, names)));
    statements.addAll(
        CatalogueInserts.replace(
            CatalogueTable.FOREIGN_KEY_DICTIONARY,
            "table_id",
            id,
            CatalogueRows.foreignKeyDictionary(t)));
    statements.addAll(
        CatalogueInserts.replace(
            CatalogueTable.DEPENDENCY, "table_id", id, CatalogueRows.dependency(t, edges)));
    // The history table's rows ({@code History: true}) go with the Table's: replaced while History
    // is declared, removed when it no longer is (the history table itself stays).
    String history = t.tableId().history().toString();
    statements.addAll(
        CatalogueInserts.replace(
            CatalogueTable.TABLE_DICTIONARY,
            "table_id",
            history,
            t.history() ? List.of(CatalogueRows.historyDictionary(t, signature, now)) : List.of()));
    statements.addAll(
        CatalogueInserts.replace(
            CatalogueTable.COLUMN_DICTIONARY,
            "table_id",
            history,
            t.history() ? CatalogueRows.historyColumnDictionary(model, t, shape) : List.of()));
    statements.addAll(
        CatalogueInserts.replace(
            CatalogueTable.DEPENDENCY,
            "table_id",
            history,
            t.history() ? List.of(CatalogueRows.historyDependency(t)) : List.of()));
    List<Row> registry =
        List.of(
            CatalogueRows.registry(
                t, signature, Signatures.structure(t, shape, 0, 0), now, Map.of()));
    statements.addAll(CatalogueInserts.replace(CatalogueTable.REGISTRY, "object_id", id, registry));
    if (t.hasLoadProcedure()) {
      // The load procedure claims sequence n + 1 from this row; it exists from the first build on.
      statements.add(loadState(id));
    }
    return statements;
  }

  /** The Table's {@code _.LoadState} row at sequence 0, unless it has one. */
  static String loadState(String tableId) {
    return "IF NOT EXISTS (SELECT 1 FROM "
        + CatalogueDdl.name(CatalogueTable.LOAD_STATE)
        + " WHERE [table_id] = "
        + TsqlNames.literal(tableId)
        + ")\n    INSERT INTO "
        + CatalogueDdl.name(CatalogueTable.LOAD_STATE)
        + " ([table_id], [last_load_id], [last_succeeded_at],"
        + " [last_delta_version], [bookmark], [load_sequence]) VALUES ("
        + TsqlNames.literal(tableId)
        + ", NULL, NULL, NULL, NULL, 0);";
  }

  /**
   * The same statements as one batch to run by hand: in one transaction, as Build runs them, and
   * rolled back whole if one fails ({@code XACT_ABORT}).
   */
  static Batch batch(
      WorkspaceModel model,
      WarehouseTable table,
      List<WorkspaceDependencies.Edge> edges,
      Instant now) {
    StringBuilder sql = new StringBuilder("SET XACT_ABORT ON;\nBEGIN TRANSACTION;\n");
    for (String statement : statements(model, table, edges, now)) {
      sql.append(statement).append('\n');
    }
    sql.append("COMMIT TRANSACTION;\n");
    return new Batch("catalogue-rows", sql.toString());
  }
}
