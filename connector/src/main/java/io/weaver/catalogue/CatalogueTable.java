package io.weaver.catalogue;

import static io.weaver.catalogue.CatalogueField.BIGINT;
import static io.weaver.catalogue.CatalogueField.BOOLEAN;
import static io.weaver.catalogue.CatalogueField.INT;
import static io.weaver.catalogue.CatalogueField.STRING;
import static io.weaver.catalogue.CatalogueField.STRINGS;
import static io.weaver.catalogue.CatalogueField.STRING_MAP;
import static io.weaver.catalogue.CatalogueField.TIMESTAMP;
import static io.weaver.catalogue.CatalogueField.optional;
import static io.weaver.catalogue.CatalogueField.required;

import java.util.List;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The catalogue tables (docs/table-contract.md, "Catalogue"), in schema {@code _} of every item,
 * with their columns. The column lists here are the one definition: the tables are created from
 * them ({@link Catalogue#ensureTables}), rows are written by column name into their order ({@link
 * #row}) and read by column name ({@link NamedRow}). Names, order and types are a published
 * contract.
 *
 * <h2>Evolution</h2>
 *
 * A published table changes in one way only: new optional (nullable) columns appended at its end,
 * each declared with {@code appended(...)}. No column is ever removed, renamed, retyped, reordered,
 * made required or inserted before another; a required column is never added. Build and every load
 * ({@link Catalogue#ensureTables}) add the appended columns an existing item lacks, the Warehouse's
 * catalogue DDL does the same, and reads ({@link Catalogue#read}) give null for a column an older
 * table does not have yet. A table may also hold trailing columns this version does not know (a
 * newer Weaver appended them): they are left alone, and writes leave them null. The constructor
 * refuses a column list that breaks the rule's shape (an appended column that is required or
 * followed by a column that is not appended).
 */
public enum CatalogueTable {
  TABLE_DICTIONARY(
      "TableDictionary",
      required("table_id", STRING),
      required("schema_name", STRING),
      required("object_name", STRING),
      required("target", STRING),
      required("form", STRING),
      required("source_path", STRING),
      optional("description", STRING),
      optional("lineage", STRING),
      optional("owner", STRING),
      optional("tags", STRINGS),
      optional("primary_key", STRINGS),
      optional("incremental", BOOLEAN),
      optional("has_load_procedure", BOOLEAN),
      optional("identity_column", STRING),
      optional("comparison_columns", STRINGS),
      optional("delete_percentage_threshold", INT),
      optional("update_percentage_threshold", INT),
      optional("stability_row_threshold", BIGINT),
      optional("delta_min_reader_version", INT),
      optional("delta_min_writer_version", INT),
      required("declaration_signature", STRING),
      required("built_at", TIMESTAMP)),
  COLUMN_DICTIONARY(
      "ColumnDictionary",
      required("table_id", STRING),
      required("column_name", STRING),
      required("ordinal", INT),
      required("data_type", STRING),
      required("nullable", BOOLEAN),
      optional("managed_role", STRING),
      optional("note", STRING),
      optional("note_reference", STRING)),
  KEY_DICTIONARY(
      "KeyDictionary",
      required("table_id", STRING),
      required("key_kind", STRING),
      required("key_ordinal", INT),
      required("column_name", STRING),
      required("column_ordinal", INT)),
  FOREIGN_KEY_DICTIONARY(
      "ForeignKeyDictionary",
      required("table_id", STRING),
      required("fk_ordinal", INT),
      required("child_column", STRING),
      required("parent_identity", STRING),
      optional("parent_item", STRING),
      required("parent_table_id", STRING),
      required("parent_column", STRING),
      required("column_ordinal", INT)),
  DEPENDENCY(
      "Dependency",
      required("table_id", STRING),
      required("depends_on", STRING),
      optional("depends_on_item", STRING),
      required("depends_on_table_id", STRING),
      required("kind", STRING)),
  REGISTRY(
      "Registry",
      required("object_id", STRING),
      required("object_kind", STRING),
      required("declaration_signature", STRING),
      required("structure_signature", STRING),
      required("weaver_version", STRING),
      required("installed_at", TIMESTAMP),
      optional("creation_defaults", STRING_MAP)),
  /** A load's history row: the fields {@link LoadResultField} lists for {@code HISTORY}. */
  LOAD_HISTORY("LoadHistory", LoadResultField.historyColumns()),
  LOAD_STATE(
      "LoadState",
      required("table_id", STRING),
      optional("last_load_id", STRING),
      optional("last_succeeded_at", TIMESTAMP),
      optional("last_delta_version", BIGINT),
      optional("bookmark", STRING),
      required("load_sequence", BIGINT)),
  LOAD_REJECTION(
      "LoadRejection",
      required("load_id", STRING),
      required("table_id", STRING),
      required("reason", STRING),
      optional("key_json", STRING),
      optional("row_json", STRING)),
  LOAD_QUARANTINE(
      "LoadQuarantine",
      required("load_id", STRING),
      required("table_id", STRING),
      required("expectations", STRINGS),
      optional("key_json", STRING),
      required("row_json", STRING)),
  LOAD_EXPECTATION(
      "LoadExpectation",
      required("load_id", STRING),
      required("table_id", STRING),
      required("expectation", STRING),
      required("action", STRING),
      required("rows_violating", BIGINT),
      optional("sample_keys", STRINGS)),
  /**
   * The publishes of an item that publishes together (docs/table-contract.md, "Item publish"): one
   * row per Table per publish, all of a publish in one commit; a publish that pins nothing ({@code
   * off}) is one row without a Table. Created by the item's first publish, not by Build, and only
   * in a lakehouse (a Warehouse's transaction already spans its Tables).
   */
  ITEM_PUBLISH(
      io.weaver.lakehouse.ItemPublishManifest.TABLE,
      required("publish_id", STRING),
      required("publish_sequence", BIGINT),
      required("kind", STRING),
      required("published_at", TIMESTAMP),
      optional("table_id", STRING),
      optional("delta_version", BIGINT),
      optional("load_id", STRING));

  private final String tableName;
  private final List<CatalogueField> fields;
  private final StructType schema;

  CatalogueTable(String tableName, CatalogueField... fields) {
    this.tableName = tableName;
    this.fields = List.of(fields);
    boolean appending = false;
    for (CatalogueField field : this.fields) {
      if (field.appended() && field.nullable()) {
        appending = true;
      } else if (field.appended() || appending) {
        throw new IllegalStateException(
            tableName
                + "."
                + field.name()
                + ": a catalogue table evolves only by optional columns appended at its end");
      }
    }
    this.schema =
        new StructType(
            this.fields.stream().map(CatalogueField::structField).toArray(StructField[]::new));
  }

  /**
   * Whether Build creates the table with the item's catalogue (and the Warehouse's catalogue DDL
   * holds it); {@link #ITEM_PUBLISH} is created by the item's first publish instead.
   */
  public boolean createdByBuild() {
    return this != ITEM_PUBLISH;
  }

  /** The table's name in schema {@code _}, e.g. {@code LoadHistory}. */
  public String tableName() {
    return tableName;
  }

  /** The columns in table order. */
  public List<CatalogueField> fields() {
    return fields;
  }

  /** The columns appended after the table was first published, in table order. */
  public List<CatalogueField> appendedFields() {
    return fields.stream().filter(CatalogueField::appended).toList();
  }

  public StructType schema() {
    return schema;
  }

  /** A new row of this table, its values set by column name. */
  public CatalogueRowBuilder row() {
    return new CatalogueRowBuilder(this);
  }
}
