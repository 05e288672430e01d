package io.weaver.build;

import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ForeignKey;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.Notes;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Target;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/** The catalogue rows (docs/table-contract.md, "Catalogue") that describe one built Table. */
public final class CatalogueRows {
  private CatalogueRows() {}

  public static Row tableDictionary(
      TableDeclaration t,
      List<String> shape,
      Integer minReader,
      Integer minWriter,
      String declarationSignature,
      Instant builtAt) {
    return RowFactory.create(
        t.tableId().toString(),
        t.tableId().schema(),
        t.tableId().object(),
        t.target().word(),
        t.source().form().word(),
        t.source().relativePath(),
        t.description(),
        t.lineage().orElse(null),
        t.owner().orElse(null),
        seq(t.tags()),
        seq(t.primaryKey().map(ColumnSet::columns).orElse(List.of())),
        t.incremental(),
        t.hasLoadProcedure(),
        t.identity().orElse(null),
        seq(Signatures.comparisonColumns(t, shape)),
        t.deletePercentageThreshold(),
        t.updatePercentageThreshold(),
        t.stabilityRowThreshold(),
        minReader,
        minWriter,
        declarationSignature,
        Timestamp.from(builtAt));
  }

  public static List<Row> columnDictionary(
      WorkspaceModel model, TableDeclaration t, List<CatalogueColumn> shape) {
    boolean lakehouse = t.target() == Target.LAKEHOUSE;
    List<String> managed = ManagedColumns.names(t.target());
    String time = lakehouse ? "timestamp" : "datetime2(6)";
    List<Row> rows = new ArrayList<>();
    int ordinal = 0;
    String id = t.tableId().toString();
    if (t.identity().isPresent()) {
      rows.add(
          RowFactory.create(
              id,
              t.identity().get(),
              ordinal++,
              "bigint",
              false,
              "identity",
              "Weaver-generated surrogate key.",
              null));
    }
    for (CatalogueColumn c : shape) {
      rows.add(
          RowFactory.create(
              id,
              c.name(),
              ordinal++,
              c.typeText(),
              c.nullable(),
              null,
              Notes.resolve(model, t, c.name()).orElse(null),
              Notes.reference(t, c.name()).orElse(null)));
    }
    rows.add(
        RowFactory.create(
            id,
            managed.get(0),
            ordinal++,
            time,
            false,
            "row_insert_datetime",
            "When Weaver first inserted the row.",
            null));
    rows.add(
        RowFactory.create(
            id,
            managed.get(1),
            ordinal++,
            time,
            false,
            "row_update_datetime",
            "When Weaver last changed the row.",
            null));
    rows.add(
        RowFactory.create(
            id,
            managed.get(2),
            ordinal++,
            time,
            false,
            "row_delete_datetime",
            "When the row was soft-deleted; 9999-12-31 for live rows.",
            null));
    if (Signatures.hasSignature(t)) {
      rows.add(
          RowFactory.create(
              id,
              managed.get(3),
              ordinal,
              lakehouse ? "string" : "varbinary(32)",
              false,
              "row_signature",
              "SHA-256 of the comparison columns.",
              null));
    }
    return rows;
  }

  public static List<Row> keyDictionary(TableDeclaration t, List<String> shape) {
    List<Row> rows = new ArrayList<>();
    String id = t.tableId().toString();
    t.primaryKey().ifPresent(pk -> addKey(rows, id, "primary", 0, pk, shape));
    for (int i = 0; i < t.uniqueKeys().size(); i++) {
      addKey(rows, id, "unique", i + 1, t.uniqueKeys().get(i), shape);
    }
    return rows;
  }

  private static void addKey(
      List<Row> rows, String id, String kind, int keyOrdinal, ColumnSet key, List<String> shape) {
    for (String column : key.columns()) {
      rows.add(RowFactory.create(id, kind, keyOrdinal, column, shape.indexOf(column)));
    }
  }

  public static List<Row> foreignKeyDictionary(TableDeclaration t) {
    List<Row> rows = new ArrayList<>();
    String id = t.tableId().toString();
    for (int i = 0; i < t.foreignKeys().size(); i++) {
      ForeignKey fk = t.foreignKeys().get(i);
      for (int c = 0; c < fk.childColumns().columns().size(); c++) {
        rows.add(
            RowFactory.create(
                id,
                i + 1,
                fk.childColumns().columns().get(c),
                fk.parentText(),
                fk.parent().files() ? null : fk.parent().itemOr(t.item()),
                fk.parent().tableId().toString(),
                fk.parentColumns().get(c),
                c));
      }
    }
    return rows;
  }

  public static List<Row> dependency(TableDeclaration t, List<WorkspaceDependencies.Edge> edges) {
    return edges.stream()
        .map(
            e ->
                RowFactory.create(
                    t.tableId().toString(),
                    e.dependsOn(),
                    e.dependsOnItem(),
                    // An external source has no Table ID: the column repeats its name or path.
                    e.dependsOnTableId() == null ? e.dependsOn() : e.dependsOnTableId().toString(),
                    e.kind()))
        .toList();
  }

  public static Row registry(
      TableDeclaration t,
      String declarationSignature,
      String structureSignature,
      Instant installedAt,
      Map<String, String> creationDefaults) {
    return RowFactory.create(
        t.tableId().toString(),
        "table",
        declarationSignature,
        structureSignature,
        io.weaver.Version.WEAVER,
        Timestamp.from(installedAt),
        Map.copyOf(creationDefaults));
  }

  /** Spark converts a Java list to an array column. */
  private static List<String> seq(List<String> values) {
    return List.copyOf(values);
  }
}
