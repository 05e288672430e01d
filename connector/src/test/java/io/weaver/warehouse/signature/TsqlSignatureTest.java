package io.weaver.warehouse.signature;

import static io.weaver.warehouse.signature.DeltaBytes.binary;
import static io.weaver.warehouse.signature.DeltaBytes.bool;
import static io.weaver.warehouse.signature.DeltaBytes.date;
import static io.weaver.warehouse.signature.DeltaBytes.dbl;
import static io.weaver.warehouse.signature.DeltaBytes.decimal;
import static io.weaver.warehouse.signature.DeltaBytes.flt;
import static io.weaver.warehouse.signature.DeltaBytes.integer;
import static io.weaver.warehouse.signature.DeltaBytes.nul;
import static io.weaver.warehouse.signature.DeltaBytes.sha256Hex;
import static io.weaver.warehouse.signature.DeltaBytes.string;
import static io.weaver.warehouse.signature.DeltaBytes.timestamp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.warehouse.signature.TsqlSignature.Column;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The evaluated T-SQL encoding against SignatureEncoding's bytes, value by value. */
class TsqlSignatureTest {

  /** Columns c0, c1, … of the given authored types. */
  private static List<Column> columns(String... types) {
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < types.length; i++) {
      out.add(Column.of("c" + i, types[i]));
    }
    return out;
  }

  private static byte[] tsql(List<Column> columns, Object... values) {
    return TsqlSignatureOracle.evaluate(columns, Arrays.asList(values));
  }

  /** One column of {@code type} holding {@code value} encodes as Delta's {@code expected}. */
  private static void same(String type, Object value, Consumer<MessageDigest> expected) {
    assertEquals(
        HexFormat.of().formatHex(DeltaBytes.of(expected)),
        HexFormat.of().formatHex(tsql(columns(type), value)),
        type + " " + value);
  }

  private static String hash(List<Column> columns, Object... values) {
    return HexFormat.of()
        .formatHex(TsqlSignatureOracle.evaluateHash(columns, Arrays.asList(values)));
  }

  // Golden vectors of RowSignatureTest (catalyst-rules) whose types have a T-SQL counterpart.

  @Test
  void goldenVectorsOfTheLakehouseHold() {
    List<Column> strings = columns("nvarchar(10)", "varchar(10)");
    assertEquals(
        "81269a7a379674012b1df92801db39bb4d38f9840916aaf7c0f349eec383bc22",
        hash(strings, null, "a"));
    assertEquals(
        "817f71ba32af653fd7e80e138944f679691877c91acf00001ea9505bb017e8a5",
        hash(strings, "a", null));
    assertEquals(
        "d7e45e87e89812e3e065ce64e5093bfa75476070cc1fbfad7c0ccf2daef9e76b",
        hash(columns("decimal(10,2)"), new BigDecimal("1.5").setScale(2)));
    assertEquals(
        "11dc385073ca0e3bef983647ea523d05336ec49ccecede43a60c98e3bac96926",
        hash(columns("real", "float"), 0.1f, (double) 0.1f));
    assertEquals(
        "d52a28c2121019ae49662b8785b42f8d02c9d8caf71ca641eff33da6a627152d",
        hash(columns("datetime2(6)"), LocalDateTime.parse("2024-01-02T03:04:05.000006")));
    assertEquals(
        "d52a28c2121019ae49662b8785b42f8d02c9d8caf71ca641eff33da6a627152d",
        hash(
            columns("datetimeoffset(6)"),
            OffsetDateTime.parse("2024-01-01T22:04:05.000006-05:00")));
    assertEquals(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hash(columns()));
    assertEquals(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        sha256Hex(tsql(columns())));
  }

  @Test
  void scalarVectorsOfTheLakehouseHold() {
    assertArrayEquals(
        DeltaBytes.of(integer(-42), integer(32767), integer(7), integer(Long.MIN_VALUE)),
        tsql(columns("smallint", "smallint", "int", "bigint"), -42, 32767, 7, Long.MIN_VALUE));
    assertArrayEquals(
        DeltaBytes.of(bool(true), bool(false)), tsql(columns("bit", "bit"), true, false));
    assertArrayEquals(
        DeltaBytes.of(date(LocalDate.parse("0999-01-01")), date(LocalDate.parse("2024-02-29"))),
        tsql(
            columns("date", "date"), LocalDate.parse("0999-01-01"), LocalDate.parse("2024-02-29")));
    assertArrayEquals(
        DeltaBytes.of(binary(new byte[] {0, (byte) 0xFF})),
        tsql(columns("varbinary(max)"), (Object) new byte[] {0, (byte) 0xFF}));
    assertArrayEquals(DeltaBytes.of(string("é€")), tsql(columns("nvarchar(max)"), "é€"));
    assertArrayEquals(
        DeltaBytes.of(dbl(1.0E-7), dbl(1.0)), tsql(columns("float", "float"), 1.0E-7, 1.0));
    assertArrayEquals(DeltaBytes.of(dbl(0.0)), tsql(columns("float"), -0.0));
  }

  @Test
  void framingIsNullByteOrPresentLengthBytes() {
    assertArrayEquals(new byte[] {0}, tsql(columns("int"), (Object) null));
    assertArrayEquals(new byte[] {1, 0, 0, 0, 2, '4', '2'}, tsql(columns("int"), 42));
    assertArrayEquals(new byte[] {1, 0, 0, 0, 0}, tsql(columns("varchar(5)"), ""));
    byte[] longText = tsql(columns("varchar(max)"), "x".repeat(70_000));
    assertArrayEquals(new byte[] {1, 0, 1, 0x11, 0x70}, Arrays.copyOf(longText, 5));
  }

  @Test
  void nullsAndSeparatorsNeverCollide() {
    List<Column> two = columns("varchar(10)", "varchar(10)");
    assertFalse(Arrays.equals(tsql(two, "ab", "c"), tsql(two, "a", "bc")));
    assertFalse(Arrays.equals(tsql(two, "a,b", "c"), tsql(two, "a", "b,c")));
    assertFalse(Arrays.equals(tsql(two, "", "a"), tsql(two, null, "a")));
    assertFalse(Arrays.equals(tsql(two, null, "a"), tsql(two, "a", null)));
    assertArrayEquals(DeltaBytes.of(string("ab"), string("")), tsql(two, "ab", ""));
    assertArrayEquals(DeltaBytes.of(nul(), nul()), tsql(columns("int", "nvarchar(5)"), null, null));
  }

  @Test
  void stringsAreTheirUtf8Bytes() {
    for (String s :
        List.of(
            "", "a", "é", "naïve café", "日本語テキスト", "😀 grin", "𝄞 clef", "a\u0000b", "tab\tnl\n")) {
      for (String type :
          List.of("nvarchar(max)", "varchar(max)", "nvarchar(100)", "varchar(8000)")) {
        same(type, s, string(s));
      }
    }
    // char(n) is stored padded, as Spark's CHAR(n) reads.
    same("char(5)", "ab", string("ab   "));
    same("nchar(3)", "é", string("é  "));
  }

  @Test
  void integersAndBits() {
    same("tinyint", 0, integer(0));
    same("tinyint", 255, integer(255));
    same("smallint", -32768, integer(-32768));
    same("int", Integer.MIN_VALUE, integer(Integer.MIN_VALUE));
    same("int", Integer.MAX_VALUE, integer(Integer.MAX_VALUE));
    same("bigint", Long.MAX_VALUE, integer(Long.MAX_VALUE));
    same("bit", true, bool(true));
    same("bit", false, bool(false));
  }

  @Test
  void decimalsAreWrittenAtTheDeclaredScale() {
    same("decimal(10, 2)", new BigDecimal("1.50"), decimal("1.5", 2));
    same("decimal(10,2)", new BigDecimal("-0.05"), decimal("-0.05", 2));
    same("numeric(10,2)", new BigDecimal("0.00"), decimal("0", 2));
    same("decimal", new BigDecimal("123"), decimal("123", 0));
    same("decimal(20,10)", new BigDecimal("0E-10"), decimal("0", 10));
    same(
        "decimal(38,18)",
        new BigDecimal("-12345678901234567890.123456789012345678"),
        decimal("-12345678901234567890.123456789012345678", 18));
    // Precision equal to scale: the fix-up restores the integer zero SQL Server drops.
    same("decimal(2,2)", new BigDecimal("0.50"), decimal("0.5", 2));
    same("decimal(2,2)", new BigDecimal("-0.05"), decimal("-0.05", 2));
    same(
        "decimal(38,38)",
        new BigDecimal("0." + "1".repeat(38)),
        decimal("0." + "1".repeat(38), 38));
    // money is decimal(19,4), smallmoney decimal(10,4).
    same("money", new BigDecimal("1.5"), decimal("1.5", 4));
    same("money", new BigDecimal("-922337203685477.5808"), decimal("-922337203685477.5808", 4));
    same("smallmoney", new BigDecimal("-214748.3648"), decimal("-214748.3648", 4));
  }

  @Test
  void decimalTextModelDropsTheZeroOnlyWhenPrecisionEqualsScale() {
    assertEquals(
        ".50", TsqlSemantics.decimalText(new TsqlSemantics.Dec(new BigDecimal("0.50"), 2)));
    assertEquals(
        "0.50", TsqlSemantics.decimalText(new TsqlSemantics.Dec(new BigDecimal("0.50"), 3)));
  }

  @Test
  void floatsAreShortestRoundTripText() {
    double[] doubles = {
      // Both 16-digit candidates round-trip and the 17th digit is a 5 that is not a tie: style 2
      // decides (e.g. 99999.999999999985448... is 99999.99999999999, not ...98).
      Math.nextDown(1.0),
      Math.nextDown(1e5),
      Math.nextDown(1e-237),
      Math.nextDown(1e23),
      0.1,
      1.0,
      -2.5,
      100.0,
      1e21,
      1e22,
      1e23,
      123456789012345680.0,
      9007199254740993.0,
      Double.MAX_VALUE,
      -Double.MAX_VALUE,
      Double.MIN_NORMAL,
      Double.MIN_VALUE,
      4.35e-320,
      0.3,
      2.0 / 3,
      1e-7,
      5e-324,
      1.7976931348623157e308,
      0.0,
      123.456,
      1e-300
    };
    for (double d : doubles) {
      same("float", d, dbl(d));
      same("float(53)", -d, dbl(-d));
    }
    float[] floats = {
      0.1f,
      1.0f,
      -2.5f,
      16777216f,
      16777218f,
      Float.MAX_VALUE,
      Float.MIN_NORMAL,
      Float.MIN_VALUE,
      1e-10f,
      3.4e38f,
      0.3f,
      1f / 3
    };
    for (float f : floats) {
      same("real", f, flt(f));
      same("float(24)", -f, flt(-f));
    }
  }

  @Test
  void floatTextSurvivesAnotherExponentSpelling() {
    List<Column> both = columns("float", "real");
    Env minimal = Env.empty(TsqlSemantics.Exponent.MINIMAL);
    for (Object[] row :
        new Object[][] {
          {0.1, 0.1f}, {1e-300, 1e-30f}, {-1.5e300, -3e38f}, {0.0, 0.0f}, {1e5, 1e5f}
        }) {
      assertArrayEquals(
          tsql(both, row), TsqlSignatureOracle.evaluate(both, Arrays.asList(row), minimal));
      assertArrayEquals(DeltaBytes.of(dbl((Double) row[0]), flt((Float) row[1])), tsql(both, row));
    }
    assertEquals(
        "1.0000000000000000E+000", TsqlSemantics.style3(1.0, TsqlSemantics.Exponent.PADDED));
    assertEquals(
        "-1.5258789062500000e-5", TsqlSemantics.style3(-0x1p-16, TsqlSemantics.Exponent.MINIMAL));
    assertEquals(
        "9.999999999999999E-238",
        TsqlSemantics.scientific(Math.nextDown(1e-237), 16, TsqlSemantics.Exponent.MINIMAL)
            .replace("e", "E"));
  }

  @Test
  void datesAndTimestamps() {
    for (String d : List.of("0001-01-01", "0999-01-01", "1970-01-01", "2024-02-29", "9999-12-31")) {
      same("date", LocalDate.parse(d), date(LocalDate.parse(d)));
    }
    for (String t :
        List.of(
            "0001-01-01T00:00:00",
            "1969-12-31T23:59:59.999999",
            "2024-01-02T03:04:05.000006",
            "9999-12-31T23:59:59.999999")) {
      LocalDateTime ts = LocalDateTime.parse(t);
      same("datetime2(6)", ts, timestamp(ts));
      same("datetime2", ts, timestamp(ts));
    }
    same(
        "datetime2(0)",
        LocalDateTime.parse("2024-01-02T03:04:05"),
        timestamp(LocalDateTime.parse("2024-01-02T03:04:05")));
    // datetime2(7): the 100 ns digit is truncated (DATEPART), never carried into the seconds.
    same(
        "datetime2(7)",
        LocalDateTime.parse("2024-01-02T03:04:05.0000019"),
        timestamp(LocalDateTime.parse("2024-01-02T03:04:05.000001")));
    same(
        "datetime2(7)",
        LocalDateTime.parse("9999-12-31T23:59:59.9999999"),
        timestamp(LocalDateTime.parse("9999-12-31T23:59:59.999999")));
    // datetime holds 1/300 s ticks: .003 is 1/300 s, .0033333 as datetime2(7), so .003333;
    // .007 is 2/300 s, .0066667, so .006666.
    same(
        "datetime",
        LocalDateTime.parse("2024-01-02T03:04:05.003"),
        timestamp(LocalDateTime.parse("2024-01-02T03:04:05.003333")));
    same(
        "datetime",
        LocalDateTime.parse("2024-01-02T03:04:05.007"),
        timestamp(LocalDateTime.parse("2024-01-02T03:04:05.006666")));
    same(
        "smalldatetime",
        LocalDateTime.parse("2024-01-02T03:04"),
        timestamp(LocalDateTime.parse("2024-01-02T03:04")));
    // datetimeoffset: the instant, in UTC.
    same(
        "datetimeoffset(7)",
        OffsetDateTime.of(2024, 1, 2, 0, 30, 0, 123456000, ZoneOffset.ofHoursMinutes(5, 30)),
        timestamp(LocalDateTime.parse("2024-01-01T19:00:00.123456")));
  }

  @Test
  void timeIsWarehouseOnlyText() {
    assertArrayEquals(
        DeltaBytes.of(string("12:34:56.123456"), string("00:00:00.000000")),
        tsql(
            columns("time(7)", "time(0)"),
            LocalTime.parse("12:34:56.1234567"),
            LocalTime.MIDNIGHT));
  }

  @Test
  void binariesAndUniqueIdentifiers() {
    same("varbinary(10)", new byte[] {1, 2, 3}, binary(new byte[] {1, 2, 3}));
    same("varbinary(max)", new byte[0], binary(new byte[0]));
    same("binary(4)", new byte[] {1, 2}, binary(new byte[] {1, 2, 0, 0}));
    UUID id = UUID.fromString("6F9619FF-8B86-D011-B42D-00C04FC964FF");
    same("uniqueidentifier", id, string("6f9619ff-8b86-d011-b42d-00c04fc964ff"));
  }

  @Test
  void valuesTheColumnCannotHoldAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> tsql(columns("float"), Double.NaN));
    assertThrows(
        IllegalArgumentException.class,
        () -> tsql(columns("decimal(10,2)"), new BigDecimal("1.234")));
    assertThrows(IllegalArgumentException.class, () -> tsql(columns("tinyint"), -1));
  }

  // Rendering.

  @Test
  void renderedTextIsPinned() {
    List<Column> cols = columns("int", "nvarchar(20)");
    assertEquals(
        "HASHBYTES('SHA2_256', (CASE WHEN [s].[c0] IS NULL THEN 0x00 ELSE ((0x01 +"
            + " CAST(CAST(DATALENGTH(CAST(CONVERT(varchar(20), [s].[c0]) AS varbinary(max))) AS"
            + " int) AS binary(4))) + CAST(CONVERT(varchar(20), [s].[c0]) AS varbinary(max)))"
            + " END + CASE WHEN [s].[c1] IS NULL THEN 0x00 ELSE ((0x01 +"
            + " CAST(CAST(DATALENGTH(CAST(CAST(CAST([s].[c1] AS nvarchar(max)) COLLATE"
            + " Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) AS int) AS"
            + " binary(4))) + CAST(CAST(CAST([s].[c1] AS nvarchar(max)) COLLATE"
            + " Latin1_General_100_BIN2_UTF8 AS varchar(max)) AS varbinary(max))) END))",
        TsqlSignature.hashExpression(cols, "s"));
    assertEquals("0x", TsqlSignature.encodingExpression(List.of(), "s"));
  }

  @Test
  void timestampTextIsPinned() {
    assertEquals(
        "CASE WHEN [t].[When] IS NULL THEN 0x00 ELSE ((0x01 + CAST(CAST(DATALENGTH(CAST((((CONVERT(char(19),"
            + " CAST([t].[When] AS datetime2(7)), 126) + '.') + RIGHT(('000000' + CONVERT(varchar(7),"
            + " DATEPART(microsecond, CAST([t].[When] AS datetime2(7))))), 6)) + 'Z') AS varbinary(max)))"
            + " AS int) AS binary(4))) + CAST((((CONVERT(char(19), CAST([t].[When] AS datetime2(7)),"
            + " 126) + '.') + RIGHT(('000000' + CONVERT(varchar(7), DATEPART(microsecond,"
            + " CAST([t].[When] AS datetime2(7))))), 6)) + 'Z') AS varbinary(max))) END",
        TsqlSignature.encodingExpression(List.of(Column.of("When", "datetime2(6)")), "t"));
  }

  private static final Pattern BRACKETED = Pattern.compile("\\[((?:[^\\]]|\\]\\])*)\\]");

  @Test
  void everyIdentifierIsBracketQuoted() {
    List<Column> hostile =
        List.of(
            Column.of("a]b", "varchar(10)"),
            Column.of("Row signature", "float"),
            Column.of("x'); DROP TABLE t; --", "decimal(5,2)"));
    String text = TsqlSignature.hashExpression(hostile, "src ]alias");
    assertTrue(text.contains("[src ]]alias].[a]]b]"), text);
    assertTrue(text.contains("[src ]]alias].[Row signature]"), text);
    assertTrue(text.contains("[src ]]alias].[x'); DROP TABLE t; --]"), text);
    Set<String> identifiers = new TreeSet<>();
    Matcher m = BRACKETED.matcher(text);
    StringBuilder outside = new StringBuilder();
    int last = 0;
    while (m.find()) {
      identifiers.add(m.group(1).replace("]]", "]"));
      outside.append(text, last, m.start()).append(' ');
      last = m.end();
    }
    outside.append(text.substring(last));
    // Only PATINDEX's character classes use brackets inside literals: '%[Ee]%', '%[1-9]%'.
    Set<String> internal =
        Set.of(
            "s", "e", "d", "x", "n", "lo", "rest", "hi", "q", "lok", "hok", "best", "bd", "tz",
            "sig", "ex", "pt", "txt", "Ee", "1-9");
    for (String id : identifiers) {
      assertTrue(
          internal.contains(id)
              || id.startsWith("_")
              || Set.of("src ]alias", "a]b", "Row signature", "x'); DROP TABLE t; --").contains(id),
          "unexpected bracketed name " + id);
    }
    assertFalse(outside.toString().contains("DROP"), "user text appears only inside brackets");
    assertFalse(
        outside.toString().contains("N'"), "no nvarchar literals: they would make UTF-16 bytes");
  }

  @Test
  void rowAliasesCannotShadowTheSubquerysTables() {
    List<Column> one = List.of(Column.of("v", "float"));
    assertThrows(IllegalArgumentException.class, () -> TsqlSignature.hashExpression(one, "_f"));
    assertThrows(IllegalArgumentException.class, () -> TsqlSignature.hashExpression(one, ""));
  }

  @Test
  void floatTextRendersAsOneSubqueryFramedInside() {
    String text = TsqlSignature.encodingExpression(List.of(Column.of("v", "float")), "s");
    assertTrue(
        text.startsWith(
            "CASE WHEN [s].[v] IS NULL THEN 0x00 ELSE (SELECT TOP (1) ((0x01 + CAST(CAST(DATALENGTH([_w].[txt]) AS int) AS binary(4))) + [_w].[txt]) FROM (SELECT CONVERT(varchar(30), [s].[v], 3) AS [s]) AS [_f] CROSS APPLY"),
        text);
    assertTrue(
        text.contains(
            "CROSS APPLY (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12), (13), (14), (15), (16), (17)) AS [_p]([n])"),
        text);
    assertTrue(
        text.contains(
            "TRY_CAST(((CONVERT(varchar(20), [_l].[lo]) + 'E') + CONVERT(varchar(12), [_q].[q])) AS float)"),
        text);
    assertTrue(
        text.endsWith("WHERE (([_a].[lok] = 1) OR ([_b].[hok] = 1)) ORDER BY [_p].[n]) END"), text);
    String real = TsqlSignature.encodingExpression(List.of(Column.of("v", "real")), "s");
    assertTrue(real.contains("CONVERT(varchar(30), CAST([s].[v] AS float), 3)"), real);
    assertTrue(real.contains("AS real) = ABS([s].[v])"), real);
  }

  @Test
  void utf8OfTheTestFixtureIsWhatItSeems() {
    assertEquals(4, "😀".getBytes(StandardCharsets.UTF_8).length);
  }
}
