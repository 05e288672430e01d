package io.weaver.warehouse.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.warehouse.signature.TsqlType.Family;
import org.junit.jupiter.api.Test;

class TsqlTypeTest {

  private static void parses(String text, String sql) {
    assertEquals(sql, TsqlType.parse(text).sql(), text);
  }

  @Test
  void parsesAuthoredTypeText() {
    parses("int", "int");
    parses("  BIGINT ", "bigint");
    parses("SmallInt", "smallint");
    parses("tinyint", "tinyint");
    parses("bit", "bit");
    parses("decimal(10, 2)", "decimal(10,2)");
    parses("NUMERIC ( 38 , 38 )", "decimal(38,38)");
    parses("numeric(5)", "decimal(5,0)");
    parses("decimal", "decimal(18,0)");
    parses("money", "money");
    parses("smallmoney", "smallmoney");
    parses("float", "float");
    parses("float(53)", "float");
    parses("float(25)", "float");
    parses("float(24)", "real");
    parses("float(1)", "real");
    parses("real", "real");
    parses("date", "date");
    parses("datetime2(3)", "datetime2(3)");
    parses("datetime2", "datetime2(7)");
    parses("datetime", "datetime");
    parses("smalldatetime", "smalldatetime");
    parses("datetimeoffset(0)", "datetimeoffset(0)");
    parses("time(6)", "time(6)");
    parses("time", "time(7)");
    parses("char(10)", "char(10)");
    parses("char", "char(1)");
    parses("varchar(8000)", "varchar(8000)");
    parses("VARCHAR(MAX)", "varchar(max)");
    parses("nchar(4)", "nchar(4)");
    parses("nvarchar(max)", "nvarchar(max)");
    parses("binary(16)", "binary(16)");
    parses("varbinary(max)", "varbinary(max)");
    parses("uniqueidentifier", "uniqueidentifier");
    assertEquals(Family.REAL, TsqlType.parse("float(24)").family());
    assertEquals(2, TsqlType.parse("decimal(10,2)").scale());
    assertEquals(TsqlType.MAX, TsqlType.parse("varbinary(max)").length());
  }

  @Test
  void unsupportedTypesNameTheTextAndListTheSupported() {
    for (String text :
        new String[] {
          "xml",
          "geography",
          "sql_variant",
          "text",
          "image",
          "decimal(39,2)",
          "decimal(5,6)",
          "varchar(0)",
          "nvarchar(4001)",
          "float(54)",
          "int(4)",
          "datetime2(8)",
          "money(2)",
          "varchar(max, 2)",
          "",
          "int int",
          "char(max)"
        }) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> TsqlType.parse(text), text);
      assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("uniqueidentifier"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> TsqlType.parse(null));
  }
}
