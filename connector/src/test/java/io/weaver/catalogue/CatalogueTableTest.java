package io.weaver.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The catalogue's column lists are a published contract (docs/table-contract.md, "Catalogue"): the
 * schemas built from them stay exactly the DDL they replaced, and rows are written and read by
 * name.
 */
class CatalogueTableTest {
  /** The tables' DDL as published; a change here is a change of the contract. */
  private static final Map<CatalogueTable, String> PUBLISHED =
      Map.ofEntries(
          Map.entry(
              CatalogueTable.TABLE_DICTIONARY,
              "table_id string not null, schema_name string not null, object_name string not null, target string not null, form string not null, source_path string not null, description string, lineage string, owner string, tags array<string>, primary_key array<string>, incremental boolean, has_load_procedure boolean, identity_column string, comparison_columns array<string>, delete_percentage_threshold int, update_percentage_threshold int, stability_row_threshold bigint, delta_min_reader_version int, delta_min_writer_version int, declaration_signature string not null, built_at timestamp not null"),
          Map.entry(
              CatalogueTable.COLUMN_DICTIONARY,
              "table_id string not null, column_name string not null, ordinal int not null, data_type string not null, nullable boolean not null, managed_role string, note string, note_reference string"),
          Map.entry(
              CatalogueTable.KEY_DICTIONARY,
              "table_id string not null, key_kind string not null, key_ordinal int not null, column_name string not null, column_ordinal int not null"),
          Map.entry(
              CatalogueTable.FOREIGN_KEY_DICTIONARY,
              "table_id string not null, fk_ordinal int not null, child_column string not null, parent_identity string not null, parent_item string, parent_table_id string not null, parent_column string not null, column_ordinal int not null"),
          Map.entry(
              CatalogueTable.DEPENDENCY,
              "table_id string not null, depends_on string not null, depends_on_item string, depends_on_table_id string not null, kind string not null"),
          Map.entry(
              CatalogueTable.REGISTRY,
              "object_id string not null, object_kind string not null, declaration_signature string not null, structure_signature string not null, weaver_version string not null, installed_at timestamp not null, creation_defaults map<string,string>"),
          Map.entry(
              CatalogueTable.LOAD_HISTORY,
              "load_id string not null, table_id string not null, status string not null, started_at timestamp, finished_at timestamp, load_timestamp timestamp, rows_inserted bigint, rows_updated bigint, rows_deleted bigint, rows_revived bigint, rows_unchanged bigint, rows_rejected bigint, target_live_rows_before bigint, target_live_rows_after bigint, delta_version bigint, gates_waived boolean, message string, rows_stale bigint"),
          Map.entry(
              CatalogueTable.LOAD_STATE,
              "table_id string not null, last_load_id string, last_succeeded_at timestamp, last_delta_version bigint, bookmark string, load_sequence bigint not null"),
          Map.entry(
              CatalogueTable.LOAD_REJECTION,
              "load_id string not null, table_id string not null, reason string not null, key_json string, row_json string"),
          Map.entry(
              CatalogueTable.LOAD_QUARANTINE,
              "load_id string not null, table_id string not null, expectations array<string> not null, key_json string, row_json string not null"),
          Map.entry(
              CatalogueTable.LOAD_EXPECTATION,
              "load_id string not null, table_id string not null, expectation string not null, action string not null, rows_violating bigint not null, sample_keys array<string>"),
          Map.entry(
              CatalogueTable.ITEM_PUBLISH,
              "publish_id string not null, publish_sequence bigint not null, kind string not null, published_at timestamp not null, table_id string, delta_version bigint, load_id string"));

  @ParameterizedTest
  @EnumSource(CatalogueTable.class)
  void schemaIsThePublishedDdl(CatalogueTable table) {
    assertEquals(StructType.fromDDL(PUBLISHED.get(table)), table.schema());
  }

  @Test
  void appendedColumnsAreOptionalAndLast() {
    assertEquals(
        List.of("rows_stale"),
        CatalogueTable.LOAD_HISTORY.appendedFields().stream().map(CatalogueField::name).toList());
    for (CatalogueTable table : CatalogueTable.values()) {
      List<CatalogueField> fields = table.fields();
      List<CatalogueField> appended = table.appendedFields();
      assertEquals(appended, fields.subList(fields.size() - appended.size(), fields.size()));
      appended.forEach(f -> assertTrue(f.nullable(), table + "." + f.name()));
    }
  }

  @Test
  void aRowIsBuiltByNameInTableOrderAndReadByName() {
    Row row =
        CatalogueTable.LOAD_STATE
            .row()
            .set("load_sequence", 7L)
            .set("bookmark", "b")
            .set("table_id", "Sales.Order")
            .build();
    assertEquals(
        java.util.Arrays.asList("Sales.Order", null, null, null, "b", 7L),
        scala.jdk.javaapi.CollectionConverters.asJava(row.toSeq()));
    NamedRow named = NamedRow.of(row);
    assertEquals("Sales.Order", named.string("table_id"));
    assertEquals(-1, named.longOr("last_delta_version", -1));
    assertEquals(7, named.longValue("load_sequence"));
  }

  @Test
  void anUnknownOrMissingColumnFailsBeforeAnythingIsWritten() {
    assertThrows(
        IllegalArgumentException.class, () -> CatalogueTable.LOAD_STATE.row().set("sequence", 1L));
    assertThrows(
        IllegalStateException.class,
        () -> CatalogueTable.LOAD_STATE.row().set("table_id", "Sales.Order").build());
  }
}
