package io.weaver.staging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The statement text a Table's names become (no session: the item's tables are given). */
class SourceNamesTest {
  private final SourceNames names =
      new SourceNames(
          "Logistics",
          "/lake/Logistics/Files",
          "Table Logistics.Parcel.Copy",
          Set.of(List.of("Parcel", "Current"), List.of("Depot", "Site"))::contains);

  @Test
  void itemTablesGetTheItemAndOtherTwoPartNamesKeepTheirPlainMeaning() {
    assertEquals(
        "select * from `Logistics`.Parcel.Current p join raw.customer c on p.id = c.id",
        names.rewrite("select * from Parcel.Current p join raw.customer c on p.id = c.id"));
    assertEquals(
        "select * from `Logistics`.`Depot`.`Site`", names.rewrite("select * from `Depot`.`Site`"));
  }

  @Test
  void threePartNamesColumnsCommentsAndStringsStayAsWritten() {
    String sql =
        "-- Parcel.Current is read below\n"
            + "select Parcel.Current.status, 'Parcel.Current' as label\n"
            + "from Sales.Parcel.Current /* Parcel.Current */ join spark_catalog.Parcel.Current";
    assertEquals(sql, names.rewrite(sql));
  }

  @Test
  void aTableReadInACteAndASubqueryIsQualifiedEverywhere() {
    assertEquals(
        "with p as (select * from `Logistics`.Parcel.Current)\n"
            + "select * from p where exists (select 1 from `Logistics`.Depot.Site d where d.id = p.s)",
        names.rewrite(
            "with p as (select * from Parcel.Current)\n"
                + "select * from p where exists (select 1 from Depot.Site d where d.id = p.s)"));
  }

  @Test
  void filesPathsAreUnderTheItemsFileAreaOtherPathsWhereTheyAre() {
    assertEquals(
        "select * from parquet.`/lake/Logistics/Files/landing/orders` join delta.`/data/x`",
        names.rewrite("select * from parquet.`Files/landing/orders` join delta.`/data/x`"));
    assertEquals(
        "create temporary view v using csv options (path '/lake/Logistics/Files/in/a.csv',"
            + " header 'true')",
        names.rewrite(
            "create temporary view v using csv options (path 'Files/in/a.csv', header 'true')"));
  }

  @Test
  void aFilesPathThatWouldLeaveTheFileAreaIsRefusedWithThePath() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> names.rewrite("select * from json.`Files/../../etc`"));
    assertTrue(
        e.getMessage().startsWith("Table Logistics.Parcel.Copy: the path 'Files/../../etc'"));
    assertTrue(e.getMessage().contains("/lake/Logistics/Files"), e.getMessage());
  }

  @Test
  void aStatementSparkCannotParseIsLeftForSparkToReport() {
    String broken = "select * from Parcel.Current where (";
    assertEquals(broken, names.rewrite(broken));
  }
}
