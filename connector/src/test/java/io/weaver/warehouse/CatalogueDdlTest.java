package io.weaver.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.catalogue.CatalogueTable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

class CatalogueDdlTest {

  @Test
  void everyCatalogueTableHasItsWarehouseTableWithTheSameColumns() {
    List<Batch> batches = CatalogueDdl.all();
    List<CatalogueTable> built =
        java.util.Arrays.stream(CatalogueTable.values())
            .filter(CatalogueTable::createdByBuild)
            .toList();
    assertEquals(built.size() + 1, batches.size());
    assertTrue(built.size() < CatalogueTable.values().length, "_.ItemPublish is Lakehouse only");
    for (CatalogueTable table : built) {
      String ddl =
          batches.stream()
              .filter(b -> b.name().equals("catalogue-" + table.tableName()))
              .findFirst()
              .orElseThrow()
              .sql();
      for (String column : table.schema().fieldNames()) {
        assertTrue(ddl.contains("[" + column + "] "), table + " lacks " + column);
      }
    }
  }

  @Test
  void jsonColumnsAreVarcharMaxAndOtherStringsVarchar8000() {
    String quarantine = ddl(CatalogueTable.LOAD_QUARANTINE);
    assertTrue(quarantine.contains("[expectations] varchar(max) NOT NULL"), quarantine);
    assertTrue(quarantine.contains("[key_json] varchar(max) NULL"), quarantine);
    assertTrue(quarantine.contains("[row_json] varchar(max) NOT NULL"), quarantine);
    assertTrue(quarantine.contains("[table_id] varchar(8000) NOT NULL"), quarantine);
    String rejection = ddl(CatalogueTable.LOAD_REJECTION);
    assertTrue(rejection.contains("[key_json] varchar(max) NULL"), rejection);
    assertTrue(rejection.contains("[row_json] varchar(max) NULL"), rejection);
    assertTrue(rejection.contains("[reason] varchar(8000) NOT NULL"), rejection);
    String expectation = ddl(CatalogueTable.LOAD_EXPECTATION);
    assertTrue(expectation.contains("[sample_keys] varchar(max) NULL"), expectation);
    assertTrue(expectation.contains("[expectation] varchar(8000) NOT NULL"), expectation);
  }

  @Test
  void anExistingTableGainsTheAppendedColumns() {
    String history = ddl(CatalogueTable.LOAD_HISTORY);
    assertTrue(
        history.contains("[message] varchar(8000) NULL,\n        [rows_stale] bigint NULL\n"),
        history);
    assertTrue(
        history.endsWith(
            "\nIF COL_LENGTH(N'[_].[LoadHistory]', N'rows_stale') IS NULL\n"
                + "    ALTER TABLE [_].[LoadHistory] ADD [rows_stale] bigint NULL;"),
        history);
    assertTrue(!ddl(CatalogueTable.LOAD_STATE).contains("ALTER"));
  }

  private static String ddl(CatalogueTable table) {
    return CatalogueDdl.all().stream()
        .filter(b -> b.name().equals("catalogue-" + table.tableName()))
        .findFirst()
        .orElseThrow()
        .sql();
  }

  @Test
  void catalogueValuesAreLiteralsNeverRawText() {
    assertEquals("NULL", CatalogueInserts.literal(null));
    assertEquals("1", CatalogueInserts.literal(true));
    assertEquals("N'it''s'", CatalogueInserts.literal("it's"));
    assertEquals("N'[\"a\",\"b''c\"]'", CatalogueInserts.literal(List.of("a", "b'c")));
    assertEquals("N'{\"k\":\"v\"}'", CatalogueInserts.literal(Map.of("k", "v")));
    assertEquals(
        "CAST('2026-12-02T10:11:12.123456' AS datetime2(6))",
        CatalogueInserts.literal(Timestamp.from(Instant.parse("2026-12-02T10:11:12.123456Z"))));
  }

  @Test
  void rowsOfOneTableAreReplacedTogether() {
    List<String> statements =
        CatalogueInserts.replace(
            CatalogueTable.KEY_DICTIONARY,
            "table_id",
            "Sales.Order",
            List.of(key("primary", 0, "order_id", 0), key("unique", 1, "email", 2)));
    assertEquals(
        List.of(
            "DELETE FROM [_].[KeyDictionary] WHERE [table_id] = N'Sales.Order';",
            "INSERT INTO [_].[KeyDictionary] ([table_id], [key_kind], [key_ordinal], [column_name],"
                + " [column_ordinal])\nVALUES (N'Sales.Order', N'primary', 0, N'order_id', 0),\n"
                + "    (N'Sales.Order', N'unique', 1, N'email', 2);"),
        statements);
  }

  private static Row key(String kind, int keyOrdinal, String column, int columnOrdinal) {
    return CatalogueTable.KEY_DICTIONARY
        .row()
        .set("table_id", "Sales.Order")
        .set("key_kind", kind)
        .set("key_ordinal", keyOrdinal)
        .set("column_name", column)
        .set("column_ordinal", columnOrdinal)
        .build();
  }
}
