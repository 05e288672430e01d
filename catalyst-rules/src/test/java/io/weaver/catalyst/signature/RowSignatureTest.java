package io.weaver.catalyst.signature;

import static io.weaver.catalyst.signature.RowSignature.rowSignature;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.catalyst.testing.LocalSpark;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/** The expression in real Spark: golden vectors, time zones, nesting, interpreted vs codegen. */
class RowSignatureTest {

  private static final String EXCLUDED_RULES = "spark.sql.optimizer.excludedRules";
  private static final String NO_FOLDING =
      "org.apache.spark.sql.catalyst.optimizer.ConstantFolding,"
          + "org.apache.spark.sql.catalyst.optimizer.ConvertToLocalRelation";

  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.get();
  }

  /**
   * The signature of one row of SQL expressions, computed twice — constant-folded on the driver
   * (interpreted) and with folding off through generated code — which must agree.
   */
  private static String signature(String... sqlExpressions) {
    StringBuilder select = new StringBuilder("SELECT ");
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < sqlExpressions.length; i++) {
      select.append(i == 0 ? "" : ", ").append(sqlExpressions[i]).append(" AS c").append(i);
      columns.add(col("c" + i));
    }
    String sql = sqlExpressions.length == 0 ? "SELECT 1 AS unused" : select.toString();
    String folded =
        spark
            .sql(sql)
            .select(rowSignature(columns))
            .as(org.apache.spark.sql.Encoders.STRING())
            .first();
    String generated;
    spark.conf().set(EXCLUDED_RULES, NO_FOLDING);
    try {
      Dataset<Row> df = spark.sql(sql).select(rowSignature(columns));
      generated = df.first().getString(0);
    } finally {
      spark.conf().unset(EXCLUDED_RULES);
    }
    assertEquals(folded, generated, "interpreted vs generated for " + sql);
    assertTrue(folded.matches("[0-9a-f]{64}"), folded);
    return folded;
  }

  // Hand-built expected encodings, hashed independently of SignatureEncoding.

  private static byte[] nul() {
    return new byte[] {0};
  }

  private static byte[] head(int n) {
    return new byte[] {1, (byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
  }

  private static byte[] val(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head(bytes.length));
    out.writeBytes(bytes);
    return out.toByteArray();
  }

  private static String sha(byte[]... parts) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    for (byte[] part : parts) {
      digest.update(part);
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  @Test
  void nullsInEveryPositionAreDistinct() throws Exception {
    String nullFirst = signature("CAST(NULL AS STRING)", "'a'");
    String nullSecond = signature("'a'", "CAST(NULL AS STRING)");
    assertNotEquals(nullFirst, nullSecond);
    assertEquals(sha(nul(), val("a")), nullFirst);
    assertEquals("81269a7a379674012b1df92801db39bb4d38f9840916aaf7c0f349eec383bc22", nullFirst);
    assertEquals("817f71ba32af653fd7e80e138944f679691877c91acf00001ea9505bb017e8a5", nullSecond);
    assertEquals(sha(nul(), nul()), signature("CAST(NULL AS INT)", "CAST(NULL AS STRING)"));
    assertNotEquals(signature("''"), signature("CAST(NULL AS STRING)"));
  }

  @Test
  void separatorsInsideValuesDoNotCollide() throws Exception {
    assertNotEquals(signature("'a,b'", "'c'"), signature("'a'", "'b,c'"));
    assertNotEquals(signature("'ab'", "''"), signature("'a'", "'b'"));
    assertEquals(sha(val("ab"), val("")), signature("'ab'", "''"));
  }

  @Test
  void scalarsUseTheirCanonicalText() throws Exception {
    assertEquals(
        sha(val("-42"), val("32767"), val("7"), val("-9223372036854775808")),
        signature(
            "CAST(-42 AS TINYINT)",
            "CAST(32767 AS SMALLINT)",
            "7",
            "CAST(-9223372036854775808 AS BIGINT)"));
    assertEquals(sha(val("true"), val("false")), signature("true", "false"));
    assertEquals(
        sha(val("0999-01-01"), val("2024-02-29")),
        signature("DATE'0999-01-01'", "DATE'2024-02-29'"));
    assertEquals(sha(head(2), new byte[] {0, (byte) 0xFF}), signature("X'00FF'"));
    assertEquals(sha(val("é€")), signature("'é€'"));
  }

  @Test
  void decimalsAreWrittenAtTheDeclaredScale() throws Exception {
    String oneFifty = signature("CAST(1.5 AS DECIMAL(10,2))");
    assertEquals(sha(val("1.50")), oneFifty);
    assertEquals("d7e45e87e89812e3e065ce64e5093bfa75476070cc1fbfad7c0ccf2daef9e76b", oneFifty);
    assertNotEquals(oneFifty, signature("CAST(1.5 AS DECIMAL(10,1))"));
    assertEquals(sha(val("0.0000000000")), signature("CAST(0 AS DECIMAL(20,10))"));
    assertEquals(
        sha(val("-12345678901234567890.123456789012345678")),
        signature("CAST('-12345678901234567890.123456789012345678' AS DECIMAL(38,18))"));
  }

  @Test
  void floatingPointZerosAndNaNsAreCanonical() throws Exception {
    assertEquals(signature("CAST(0.0 AS DOUBLE)"), signature("CAST(-0.0 AS DOUBLE)"));
    assertEquals(signature("CAST(0.0 AS FLOAT)"), signature("CAST('-0.0' AS FLOAT)"));
    assertEquals(sha(val("0.0")), signature("-CAST(0.0 AS DOUBLE)"));
    assertEquals(sha(val("NaN")), signature("CAST('NaN' AS DOUBLE)"));
    assertEquals(signature("CAST('NaN' AS DOUBLE)"), signature("CAST('Infinity' AS DOUBLE) * 0"));
    assertEquals(sha(val("NaN")), signature("CAST('NaN' AS FLOAT)"));
    assertEquals(
        sha(val("Infinity"), val("-Infinity")),
        signature("CAST('Infinity' AS DOUBLE)", "CAST('-Infinity' AS FLOAT)"));
    assertEquals(sha(val("0.0000001"), val("1.0")), signature("1.0E-7D", "1.0D"));
  }

  @Test
  void floatsAreNotWidenedToDoubleText() throws Exception {
    String both = signature("CAST(0.1 AS FLOAT)", "CAST(CAST(0.1 AS FLOAT) AS DOUBLE)");
    assertEquals(sha(val("0.1"), val("0.10000000149011612")), both);
    assertEquals("11dc385073ca0e3bef983647ea523d05336ec49ccecede43a60c98e3bac96926", both);
  }

  @Test
  void timestampsDoNotDependOnTheSessionTimeZone() throws Exception {
    String[] values = {
      "TIMESTAMP'2024-01-02 03:04:05.000006Z'", "TIMESTAMP_NTZ'2024-01-02 03:04:05.000006'"
    };
    String zone = spark.conf().get("spark.sql.session.timeZone");
    try {
      spark.conf().set("spark.sql.session.timeZone", "UTC");
      String utc = signature(values);
      spark.conf().set("spark.sql.session.timeZone", "America/Los_Angeles");
      String losAngeles = signature(values);
      assertEquals(utc, losAngeles);
      String instant = "2024-01-02T03:04:05.000006Z";
      assertEquals(sha(val(instant), val(instant)), utc);
      assertEquals(
          "d52a28c2121019ae49662b8785b42f8d02c9d8caf71ca641eff33da6a627152d",
          signature("TIMESTAMP'2024-01-02 03:04:05.000006Z'"));
      assertEquals(sha(val("1969-12-31T23:59:59.999999Z")), signature("TIMESTAMP_MICROS(-1)"));
    } finally {
      spark.conf().set("spark.sql.session.timeZone", zone);
    }
  }

  @Test
  void arraysMapsAndStructsNest() throws Exception {
    String array = signature("ARRAY(1, NULL, 3)");
    assertEquals(sha(head(3), val("1"), nul(), val("3")), array);
    assertEquals("78db97d1a3fd16c7a4ef2e0eec6aa57fe7494253750cbdc886182ce5202570e3", array);
    assertNotEquals(array, signature("ARRAY(1, 3, NULL)"));
    assertEquals(sha(head(0)), signature("CAST(ARRAY() AS ARRAY<INT>)"));
    assertNotEquals(signature("ARRAY('a', 'b')"), signature("ARRAY('a,b')"));

    String struct = signature("NAMED_STRUCT('x', 1, 'y', CAST(NULL AS STRING))");
    assertEquals(sha(head(2), val("1"), nul()), struct);
    assertEquals("825abecc8e1e131de8081463febdbe0135a9ad43e9218914fa44f64d8ab3a573", struct);
    assertNotEquals(struct, signature("CAST(NULL AS STRUCT<x: INT, y: STRING>)"));

    assertEquals(
        sha(head(1), head(3), val("a"), nul(), head(1), val("1"), head(1), val("2024-01-01")),
        signature(
            "ARRAY(NAMED_STRUCT('s', 'a', 'n', CAST(NULL AS DOUBLE),"
                + " 'm', MAP(1, ARRAY(DATE'2024-01-01'))))"));
  }

  @Test
  void mapsIgnoreEntryOrder() throws Exception {
    String ab = signature("MAP('a', 1, 'b', 2)");
    String ba = signature("MAP('b', 2, 'a', 1)");
    assertEquals(ab, ba);
    assertEquals(sha(head(2), val("a"), val("1"), val("b"), val("2")), ab);
    assertEquals("632b48a178344efd10d793a263cb96133a052ac4499e4cca67daf0ee3aab6d7e", ab);
    assertEquals(
        signature("MAP_FROM_ARRAYS(ARRAY(3, 1, 2), ARRAY('c', NULL, 'b'))"),
        signature("MAP_FROM_ARRAYS(ARRAY(2, 3, 1), ARRAY('b', 'c', NULL))"));
    assertNotEquals(ab, signature("MAP('a', 2, 'b', 1)"));
  }

  @Test
  void noColumnsIsTheHashOfNothing() {
    assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", signature());
  }

  @Test
  void isNotNullableAndIsAStringColumn() {
    Dataset<Row> df =
        spark
            .sql("SELECT CAST(NULL AS STRING) AS a")
            .withColumn("sig", rowSignature(List.of(col("a"))));
    assertEquals(DataTypes.StringType, df.schema().apply("sig").dataType());
    assertEquals(false, df.schema().apply("sig").nullable());
  }

  @Test
  void unsupportedTypesAreRejectedNamingTheType() {
    IllegalArgumentException direct =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new RowSignature(
                    CollectionConverters.asScala(
                            List.<Expression>of(
                                Literal.create(
                                    null, DataTypes.createDayTimeIntervalType((byte) 0, (byte) 3))))
                        .toList()));
    assertTrue(direct.getMessage().contains("INTERVAL DAY TO SECOND"), direct.getMessage());

    Dataset<Row> intervals = spark.sql("SELECT INTERVAL '1' DAY AS i, 'x' AS s");
    IllegalArgumentException analysed =
        assertThrows(
            IllegalArgumentException.class,
            () -> intervals.select(rowSignature(List.of(col("s"), col("i")))).collectAsList());
    assertTrue(analysed.getMessage().contains("INTERVAL DAY"), analysed.getMessage());
  }

  /** Same rows, every evaluation mode: whole-stage codegen on/off, codegen-only vs interpreted. */
  @Test
  void interpretedAndGeneratedCodeAgree() {
    String[][] modes = {
      {"true", "CODEGEN_ONLY"},
      {"false", "CODEGEN_ONLY"},
      {"false", "NO_CODEGEN"},
      {"true", "NO_CODEGEN"}
    };
    List<List<Row>> results = new ArrayList<>();
    for (String[] mode : modes) {
      spark.conf().set("spark.sql.codegen.wholeStage", mode[0]);
      spark.conf().set("spark.sql.codegen.factoryMode", mode[1]);
      try {
        Dataset<Row> df =
            mixedRows(3_000).select(col("id"), rowSignature(mixedColumns()).as("sig"));
        if (mode[0].equals("true") && mode[1].equals("CODEGEN_ONLY")) {
          String generated =
              org.apache.spark.sql.execution.debug.package$.MODULE$.codegenString(
                  df.queryExecution().executedPlan());
          assertTrue(
              generated.contains("SignatureEncoding.finishHex"),
              "whole-stage code uses the encoders");
        }
        results.add(df.orderBy("id").collectAsList());
      } finally {
        spark.conf().unset("spark.sql.codegen.wholeStage");
        spark.conf().unset("spark.sql.codegen.factoryMode");
      }
    }
    for (int i = 1; i < results.size(); i++) {
      assertEquals(results.get(0), results.get(i), "mode " + String.join("/", modes[i]));
    }
    long distinct = results.get(0).stream().map(r -> r.getString(1)).distinct().count();
    assertEquals(3_000, distinct, "every generated row differs, so must every signature");
  }

  static Dataset<Row> mixedRows(long n) {
    return spark
        .range(n)
        .selectExpr(
            "id",
            "IF(id % 7 = 0, NULL, CONCAT('name-', CAST(id AS STRING))) AS s",
            "CAST(id % 128 AS TINYINT) AS b",
            "CAST(id % 30000 AS SMALLINT) AS sh",
            "IF(id % 5 = 0, NULL, CAST(id AS INT)) AS i",
            "id * 1000003 AS l",
            "CAST(id / 7 AS DECIMAL(18,4)) AS d",
            "CAST(id / 3 AS DECIMAL(38,10)) AS big",
            "CAST(id AS FLOAT) / 10 AS f",
            "IF(id % 11 = 0, CAST('NaN' AS DOUBLE), id / 13.0D) AS db",
            "id % 2 = 0 AS bo",
            "DATE_ADD(DATE'2000-01-01', CAST(id AS INT)) AS dt",
            "TIMESTAMP_MICROS(id * 1000001) AS ts",
            "CAST(TIMESTAMP_MICROS(id * 7) AS TIMESTAMP_NTZ) AS ntz",
            "CAST(CAST(id AS STRING) AS BINARY) AS bin",
            "IF(id % 3 = 0, NULL, ARRAY(id, NULL, id + 1)) AS arr",
            "MAP(CAST(id % 5 AS STRING), id, 'k', IF(id % 2 = 0, NULL, id)) AS m",
            "NAMED_STRUCT('a', id, 'b', IF(id % 4 = 0, NULL, ARRAY(CAST(id AS STRING)))) AS st");
  }

  static List<Column> mixedColumns() {
    List<Column> columns = new ArrayList<>();
    for (String name :
        List.of(
            "s", "b", "sh", "i", "l", "d", "big", "f", "db", "bo", "dt", "ts", "ntz", "bin", "arr",
            "m", "st")) {
      columns.add(col(name));
    }
    return columns;
  }

  @Test
  void worksInWithColumnAndSurvivesAShuffle() {
    Dataset<Row> signed = mixedRows(200).withColumn("sig", rowSignature(mixedColumns()));
    Map<Long, String> before = new java.util.HashMap<>();
    for (Row row : signed.select("id", "sig").collectAsList()) {
      before.put(row.getLong(0), row.getString(1));
    }
    for (Row row : signed.repartition(2, col("sig")).select("id", "sig").collectAsList()) {
      assertEquals(before.get(row.getLong(0)), row.getString(1));
    }
    assertEquals(200, before.size());
  }
}
