package io.weaver.install;

import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalogue.NamedRow;
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
import java.util.Optional;
import org.apache.spark.sql.Row;

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
    return CatalogueTable.TABLE_DICTIONARY
        .row()
        .set("table_id", t.tableId().toString())
        .set("schema_name", t.tableId().schema())
        .set("object_name", t.tableId().object())
        .set("target", t.target().word())
        .set("form", t.source().form().word())
        .set("source_path", t.source().relativePath())
        .set("description", t.description())
        .set("lineage", t.lineage().orElse(null))
        .set("owner", t.owner().orElse(null))
        .set("tags", seq(t.tags()))
        .set("primary_key", seq(t.primaryKey().map(ColumnSet::columns).orElse(List.of())))
        .set("incremental", t.incremental())
        .set("has_load_procedure", t.hasLoadProcedure())
        .set("identity_column", t.identity().orElse(null))
        .set("comparison_columns", seq(Signatures.comparisonColumns(t, shape)))
        .set("delete_percentage_threshold", t.deletePercentageThreshold())
        .set("update_percentage_threshold", t.updatePercentageThreshold())
        .set("stability_row_threshold", t.stabilityRowThreshold())
        .set("delta_min_reader_version", minReader)
        .set("delta_min_writer_version", minWriter)
        .set("declaration_signature", declarationSignature)
        .set("built_at", Timestamp.from(builtAt))
        .build();
  }

  /** What Build reads back from a Table's {@code _.TableDictionary} row. */
  public record DictionaryEntry(
      String tableId,
      List<String> primaryKey,
      Optional<String> identityColumn,
      List<String> comparisonColumns,
      String declarationSignature) {
    public static DictionaryEntry fromRow(Row row) {
      NamedRow r = NamedRow.of(row);
      return new DictionaryEntry(
          r.string("table_id"),
          List.copyOf(r.<String>list("primary_key")),
          r.optionalString("identity_column"),
          List.copyOf(r.<String>list("comparison_columns")),
          r.string("declaration_signature"));
    }
  }

  /** What Build reads back from a Table's {@code _.Registry} row. */
  public record RegistryEntry(
      String objectId,
      String declarationSignature,
      String structureSignature,
      Optional<Map<String, String>> creationDefaults) {
    public static RegistryEntry fromRow(Row row) {
      NamedRow r = NamedRow.of(row);
      return new RegistryEntry(
          r.string("object_id"),
          r.string("declaration_signature"),
          r.string("structure_signature"),
          r.isNull("creation_defaults")
              ? Optional.empty()
              : Optional.of(Map.copyOf(r.<String, String>map("creation_defaults"))));
    }
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
          column(
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
      rows.add(business(model, t, id, c, ordinal++, c.nullable()));
    }
    rows.add(
        column(
            id,
            managed.get(0),
            ordinal++,
            time,
            false,
            "row_insert_datetime",
            "When Weaver first inserted the row.",
            null));
    rows.add(
        column(
            id,
            managed.get(1),
            ordinal++,
            time,
            false,
            "row_update_datetime",
            "When Weaver last changed the row.",
            null));
    rows.add(
        column(
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
          column(
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

  /** A business column's row of table {@code id}, with the note {@code t} gives it. */
  private static Row business(
      WorkspaceModel model,
      TableDeclaration t,
      String id,
      CatalogueColumn c,
      int ordinal,
      boolean nullable) {
    return column(
        id,
        c.name(),
        ordinal,
        c.typeText(),
        nullable,
        null,
        Notes.resolve(model, t, c.name()).orElse(null),
        Notes.reference(t, c.name()).orElse(null));
  }

  private static Row column(
      String id,
      String name,
      int ordinal,
      String dataType,
      boolean nullable,
      String managedRole,
      String note,
      String noteReference) {
    return CatalogueTable.COLUMN_DICTIONARY
        .row()
        .set("table_id", id)
        .set("column_name", name)
        .set("ordinal", ordinal)
        .set("data_type", dataType)
        .set("nullable", nullable)
        .set("managed_role", managedRole)
        .set("note", note)
        .set("note_reference", noteReference)
        .build();
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
      rows.add(
          CatalogueTable.KEY_DICTIONARY
              .row()
              .set("table_id", id)
              .set("key_kind", kind)
              .set("key_ordinal", keyOrdinal)
              .set("column_name", column)
              .set("column_ordinal", shape.indexOf(column))
              .build());
    }
  }

  public static List<Row> foreignKeyDictionary(TableDeclaration t) {
    List<Row> rows = new ArrayList<>();
    String id = t.tableId().toString();
    for (int i = 0; i < t.foreignKeys().size(); i++) {
      ForeignKey fk = t.foreignKeys().get(i);
      for (int c = 0; c < fk.childColumns().columns().size(); c++) {
        rows.add(
            CatalogueTable.FOREIGN_KEY_DICTIONARY
                .row()
                .set("table_id", id)
                .set("fk_ordinal", i + 1)
                .set("child_column", fk.childColumns().columns().get(c))
                .set("parent_identity", fk.parentText())
                .set("parent_item", fk.parent().files() ? null : fk.parent().itemOr(t.item()))
                .set("parent_table_id", fk.parent().tableId().toString())
                .set("parent_column", fk.parentColumns().get(c))
                .set("column_ordinal", c)
                .build());
      }
    }
    return rows;
  }

  public static List<Row> dependency(TableDeclaration t, List<WorkspaceDependencies.Edge> edges) {
    return edges.stream()
        .map(
            e ->
                CatalogueTable.DEPENDENCY
                    .row()
                    .set("table_id", t.tableId().toString())
                    .set("depends_on", e.dependsOn())
                    .set("depends_on_item", e.dependsOnItem())
                    // An external source has no Table ID: the column repeats its name or path.
                    .set(
                        "depends_on_table_id",
                        e.dependsOnTableId() == null
                            ? e.dependsOn()
                            : e.dependsOnTableId().toString())
                    .set("kind", e.kind())
                    .build())
        .toList();
  }

  /**
   * The {@code _.Dependency} row of a Table's history table ({@code History: true}): the history
   * table depends on its Table, kind {@code history} (Build writes it, Load fills it).
   */
  public static Row historyDependency(TableDeclaration t) {
    return CatalogueTable.DEPENDENCY
        .row()
        .set("table_id", t.tableId().history().toString())
        .set("depends_on", t.tableId().toString())
        .set("depends_on_item", t.item())
        .set("depends_on_table_id", t.tableId().toString())
        .set("kind", HISTORY_KIND)
        .build();
  }

  /** The {@code kind} of a history table's dependency on its Table. */
  public static final String HISTORY_KIND = "history";

  /** The {@code form} of a history table's {@code _.TableDictionary} row: Weaver made it. */
  public static final String HISTORY_FORM = "history";

  /**
   * The {@code _.TableDictionary} row of a Table's history table ({@code History: true}): form
   * {@code history}, the Table's source file, owner and tags, keyed by the Table's key and {@code
   * valid_from} (one row per version of each key); what only a load of the Table has (thresholds,
   * comparison columns, a load procedure) is left empty, and so is the Identity, which the history
   * copies rather than generates.
   */
  public static Row historyDictionary(
      TableDeclaration t, String declarationSignature, Instant builtAt) {
    List<String> key = new ArrayList<>(t.primaryKey().map(ColumnSet::columns).orElse(List.of()));
    key.add(HistoryTable.VALID_FROM);
    return CatalogueTable.TABLE_DICTIONARY
        .row()
        .set("table_id", t.tableId().history().toString())
        .set("schema_name", t.tableId().history().schema())
        .set("object_name", t.tableId().history().object())
        .set("target", t.target().word())
        .set("form", HISTORY_FORM)
        .set("source_path", t.source().relativePath())
        .set(
            "description",
            "Every version of "
                + t.tableId()
                + ": one row per version of each key, written by its loads (History: true).")
        .set("owner", t.owner().orElse(null))
        .set("tags", seq(t.tags()))
        .set("primary_key", seq(key))
        .set("incremental", false)
        .set("has_load_procedure", false)
        .set("declaration_signature", declarationSignature)
        .set("built_at", Timestamp.from(builtAt))
        .build();
  }

  /**
   * The {@code _.ColumnDictionary} rows of a Table's history table: the versioned columns (the
   * Identity, then the business columns, with the Table's notes; all nullable, as the history holds
   * them), then the history's own columns, each with its role.
   */
  public static List<Row> historyColumnDictionary(
      WorkspaceModel model, TableDeclaration t, List<CatalogueColumn> shape) {
    String id = t.tableId().history().toString();
    List<Row> rows = new ArrayList<>();
    int ordinal = 0;
    if (t.identity().isPresent()) {
      rows.add(
          column(
              id,
              t.identity().get(),
              ordinal++,
              "bigint",
              true,
              null,
              "The Table's surrogate key in this version.",
              null));
    }
    for (CatalogueColumn c : shape) {
      rows.add(business(model, t, id, c, ordinal++, true));
    }
    boolean lakehouse = t.target() == Target.LAKEHOUSE;
    String time = lakehouse ? "timestamp" : "datetime2(6)";
    String flag = lakehouse ? "boolean" : "bit";
    String[][] own = {
      {HistoryTable.VALID_FROM, time, "false", "When this version became the key's row."},
      {
        HistoryTable.VALID_TO,
        time,
        "false",
        "When a later version replaced it; 9999-12-31 while it is the key's current version."
      },
      {HistoryTable.IS_CURRENT, flag, "false", "Whether this is the key's newest version."},
      {
        HistoryTable.IS_DELETED,
        flag,
        "false",
        "Whether this version records the key's deletion (soft or hard)."
      },
      {
        HistoryTable.LOAD_ID,
        lakehouse ? "string" : "varchar(64)",
        "true",
        "The load that wrote this version; null for versions a catch-up wrote for loads it could"
            + " not name."
      }
    };
    for (String[] c : own) {
      rows.add(column(id, c[0], ordinal++, c[1], Boolean.parseBoolean(c[2]), c[0], c[3], null));
    }
    return rows;
  }

  public static Row registry(
      TableDeclaration t,
      String declarationSignature,
      String structureSignature,
      Instant installedAt,
      Map<String, String> creationDefaults) {
    return CatalogueTable.REGISTRY
        .row()
        .set("object_id", t.tableId().toString())
        .set("object_kind", "table")
        .set("declaration_signature", declarationSignature)
        .set("structure_signature", structureSignature)
        .set("weaver_version", io.weaver.Version.WEAVER)
        .set("installed_at", Timestamp.from(installedAt))
        .set("creation_defaults", Map.copyOf(creationDefaults))
        .build();
  }

  /** Spark converts a Java list to an array column. */
  private static List<String> seq(List<String> values) {
    return List.copyOf(values);
  }
}
