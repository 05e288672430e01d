package io.weaver.catalogue;

import org.apache.spark.sql.types.StructType;

/**
 * The catalogue tables (docs/table-contract.md, "Catalogue"), in schema {@code _} of every item,
 * with their columns.
 */
public enum CatalogueTable {
  TABLE_DICTIONARY(
      "TableDictionary",
      "table_id string not null, schema_name string not null, object_name string not null,"
          + " target string not null, form string not null, source_path string not null,"
          + " description string, lineage string, owner string, tags array<string>,"
          + " primary_key array<string>, incremental boolean, has_load_procedure boolean,"
          + " identity_column string, comparison_columns array<string>,"
          + " delete_percentage_threshold int, update_percentage_threshold int,"
          + " stability_row_threshold bigint, delta_min_reader_version int,"
          + " delta_min_writer_version int, declaration_signature string not null,"
          + " built_at timestamp not null"),
  COLUMN_DICTIONARY(
      "ColumnDictionary",
      "table_id string not null, column_name string not null, ordinal int not null,"
          + " data_type string not null, nullable boolean not null, managed_role string,"
          + " note string, note_reference string"),
  KEY_DICTIONARY(
      "KeyDictionary",
      "table_id string not null, key_kind string not null, key_ordinal int not null,"
          + " column_name string not null, column_ordinal int not null"),
  FOREIGN_KEY_DICTIONARY(
      "ForeignKeyDictionary",
      "table_id string not null, fk_ordinal int not null, child_column string not null,"
          + " parent_identity string not null, parent_item string, parent_table_id string not null,"
          + " parent_column string not null, column_ordinal int not null"),
  DEPENDENCY(
      "Dependency",
      "table_id string not null, depends_on string not null, depends_on_item string,"
          + " depends_on_table_id string not null, kind string not null"),
  REGISTRY(
      "Registry",
      "object_id string not null, object_kind string not null, declaration_signature string not"
          + " null, structure_signature string not null, weaver_version string not null,"
          + " installed_at timestamp not null, creation_defaults map<string,string>"),
  LOAD_HISTORY(
      "LoadHistory",
      "load_id string not null, table_id string not null, status string not null,"
          + " started_at timestamp, finished_at timestamp, load_timestamp timestamp,"
          + " rows_inserted bigint, rows_updated bigint, rows_deleted bigint, rows_revived bigint,"
          + " rows_unchanged bigint, rows_rejected bigint, target_live_rows_before bigint,"
          + " target_live_rows_after bigint, delta_version bigint, gates_waived boolean,"
          + " message string"),
  LOAD_STATE(
      "LoadState",
      "table_id string not null, last_load_id string, last_succeeded_at timestamp,"
          + " last_delta_version bigint, bookmark string, load_sequence bigint not null"),
  LOAD_REJECTION(
      "LoadRejection",
      "load_id string not null, table_id string not null, reason string not null,"
          + " key_json string, row_json string");

  private final String tableName;
  private final String ddl;

  CatalogueTable(String tableName, String ddl) {
    this.tableName = tableName;
    this.ddl = ddl;
  }

  /** The table's name in schema {@code _}, e.g. {@code LoadHistory}. */
  public String tableName() {
    return tableName;
  }

  public StructType schema() {
    return StructType.fromDDL(ddl);
  }
}
