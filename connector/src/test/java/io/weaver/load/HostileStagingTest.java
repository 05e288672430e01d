package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.records.LoadOutcome;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Staging data at the edges (docs/reliability.md, "Staging data"): nulls everywhere, empty string
 * against null, extreme decimals and timestamps, NaN and infinities, a very wide row, zero rows.
 * Each is stored exactly, a reload of the same rows changes nothing, and a one-value change is one
 * update.
 */
class HostileStagingTest {
  @TempDir Path dir;

  private static final StructType EDGES =
      new StructType()
          .add("id", DataTypes.IntegerType, false)
          .add("s", DataTypes.StringType)
          .add("d", DataTypes.createDecimalType(38, 18))
          .add("x", DataTypes.DoubleType)
          .add("f", DataTypes.FloatType)
          .add("ts", DataTypes.TimestampType)
          .add("dt", DataTypes.DateType);

  private TestTable table(String name, StructType schema, boolean keyed) {
    List<String> business = List.of(schema.fieldNames());
    return new TestTable(
        LoadSpec.builder("Edge." + name, dir.resolve(name).toString(), schema)
            .primaryKey(keyed ? List.of("id") : List.of())
            .comparisonColumns(keyed ? business.subList(1, business.size()) : List.of())
            .build());
  }

  private static Object[] edgeRow(
      int id, String s, String d, Double x, Float f, String ts, String dt) {
    return new Object[] {
      id,
      s,
      d == null ? null : new BigDecimal(d),
      x,
      f,
      ts == null ? null : Timestamp.from(Instant.parse(ts)),
      dt == null ? null : java.sql.Date.valueOf(dt)
    };
  }

  private static final String MAX38 = "99999999999999999999.999999999999999999";

  private List<Object[]> edges() {
    List<Object[]> rows = new ArrayList<>();
    rows.add(edgeRow(1, null, null, null, null, null, null));
    rows.add(edgeRow(2, "", "0", 0.0, 0.0f, "1970-01-01T00:00:00Z", "1970-01-01"));
    rows.add(
        edgeRow(3, "x", MAX38, Double.NaN, Float.NaN, "9999-12-31T23:59:59.999999Z", "9999-12-31"));
    rows.add(
        edgeRow(
            4,
            " ",
            "-" + MAX38,
            Double.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            "0001-01-01T00:00:00Z",
            "0001-01-01"));
    rows.add(
        edgeRow(
            5,
            "\u0000\ud83d\ude00'\"`;--",
            "0.000000000000000001",
            -0.0,
            Float.MIN_VALUE,
            "1582-10-10T12:00:00.000001Z",
            "1582-10-10"));
    rows.add(
        edgeRow(6, "null", "-0.000000000000000001", Double.MAX_VALUE, Float.MAX_VALUE, null, null));
    return rows;
  }

  @Test
  void edgeValuesAreStoredExactlyAndReloadAsUnchanged() {
    TestTable t = table("Values", EDGES, true);
    List<Object[]> rows = edges();
    LoadOutcome first = t.load(t.rows(rows.toArray(new Object[0][])), TestTable.T1);
    assertEquals(LoadStatus.SUCCEEDED, first.status(), first.message());
    assertEquals(rows.size(), first.rowsInserted());
    Map<Integer, Row> stored = t.byId();
    for (Object[] expected : rows) {
      Row r = stored.get((Integer) expected[0]);
      for (int c = 1; c < expected.length; c++) {
        Object actual = r.get(c);
        String what = "id " + expected[0] + " column " + EDGES.fieldNames()[c];
        if (expected[c] instanceof BigDecimal b) {
          assertEquals(0, b.compareTo((BigDecimal) actual), what + ": " + actual);
        } else if (expected[c] instanceof Double x) {
          assertEquals(Double.doubleToLongBits(x), Double.doubleToLongBits((Double) actual), what);
        } else if (expected[c] instanceof Float f) {
          assertEquals(Float.floatToIntBits(f), Float.floatToIntBits((Float) actual), what);
        } else {
          assertEquals(expected[c], actual, what);
        }
      }
    }
    long version = t.version();

    LoadOutcome again = t.load(t.rows(rows.toArray(new Object[0][])), TestTable.T2);
    assertEquals(LoadStatus.SUCCEEDED, again.status(), again.message());
    assertEquals(
        rows.size(), again.rowsUnchanged(), "NaN, -0.0 and nulls compare equal to themselves");
    assertFalse(again.committed());
    assertEquals(version, t.version());

    // null -> "" and "" -> null are changes; so is NaN -> null.
    rows.set(0, edgeRow(1, "", null, null, null, null, null));
    rows.set(1, edgeRow(2, null, "0", 0.0, 0.0f, "1970-01-01T00:00:00Z", "1970-01-01"));
    rows.set(
        2, edgeRow(3, "x", MAX38, null, Float.NaN, "9999-12-31T23:59:59.999999Z", "9999-12-31"));
    LoadOutcome changed = t.load(t.rows(rows.toArray(new Object[0][])), TestTable.T3);
    assertEquals(3, changed.rowsUpdated(), changed.message());
    assertEquals(rows.size() - 3, changed.rowsUnchanged());
    assertEquals("", t.byId().get(1).getString(1));
    assertTrue(t.byId().get(2).isNullAt(1));
  }

  @Test
  void aDecimalBeyondItsPrecisionFailsNamingTheColumn() {
    TestTable t = table("Overflow", EDGES, true);
    // Staged as decimal(38,0): 10^25 does not fit the declared decimal(38,18).
    StructType staged = new StructType();
    for (var field : EDGES.fields()) {
      staged =
          staged.add(
              field.name(),
              field.name().equals("d") ? DataTypes.createDecimalType(38, 0) : field.dataType());
    }
    Object[] row = edgeRow(1, "x", "1" + "0".repeat(25), 1.0, 1f, null, null);
    LoadOutcome o = t.load(t.rows(staged, row), TestTable.T1);
    assertEquals(LoadStatus.FAILED, o.status(), o.message());
    assertTrue(
        o.message().contains("Edge.Overflow")
            && o.message().contains("column `d`: 1 value(s) cannot be cast"),
        o.message());
    assertEquals(0, t.byId().size(), "a failed load writes nothing");
  }

  @Test
  void aVeryWideRowLoadsAndCompares() {
    StructType wide = new StructType().add("id", DataTypes.IntegerType, false);
    for (int c = 1; c <= 300; c++) {
      wide = wide.add("c" + c, DataTypes.StringType);
    }
    TestTable t = table("Wide", wide, true);
    Object[] row = new Object[301];
    row[0] = 1;
    for (int c = 1; c <= 300; c++) {
      row[c] = c % 7 == 0 ? null : "v" + c;
    }
    row[300] = "y".repeat(1_000_000); // one megabyte value
    assertEquals(1, t.load(t.rows(row), TestTable.T1).rowsInserted());
    assertEquals(1, t.load(t.rows(row), TestTable.T2).rowsUnchanged());
    row[150] = "changed";
    LoadOutcome o = t.load(t.rows(row), TestTable.T3);
    assertEquals(1, o.rowsUpdated(), o.message());
    Row stored = t.byId().get(1);
    assertEquals(1_000_000, stored.getString(stored.fieldIndex("c300")).length());
  }

  /**
   * Long mode ({@code -Dweaver.reliability.long=true}): ten million rows in, the same ten million
   * again (all unchanged, no commit), then a tenth of them changed. Counts only; nothing collected.
   */
  @Test
  @EnabledIfSystemProperty(named = "weaver.reliability.long", matches = "true")
  void tenMillionRows() {
    StructType schema =
        new StructType()
            .add("id", DataTypes.IntegerType, false)
            .add("s", DataTypes.StringType)
            .add("x", DataTypes.DoubleType);
    TestTable t = table("Ten", schema, true);
    long rows = Long.getLong("weaver.reliability.rows", 10_000_000L);
    Dataset<Row> all =
        t.spark.sql(
            "select cast(id as int) as id, if(id % 5 = 0, null, concat('s', id)) as s,"
                + " if(id % 7 = 0, double('NaN'), id / 3.0) as x from range("
                + rows
                + ")");
    assertEquals(rows, t.load(all, TestTable.T1).rowsInserted());
    LoadOutcome again = t.load(all, TestTable.T2);
    assertEquals(rows, again.rowsUnchanged(), again.message());
    assertFalse(again.committed());
    Dataset<Row> tenth = all.selectExpr("id", "if(id % 10 = 0, 'changed', s) as s", "x");
    LoadOutcome changed = t.load(tenth, TestTable.T3);
    assertEquals((rows + 9) / 10, changed.rowsUpdated(), changed.message());
    assertEquals(rows, changed.targetLiveRowsAfter());
  }

  @Test
  void zeroRowsLoadCleanly() {
    TestTable keyed = table("EmptyKeyed", EDGES, true);
    long v = keyed.version();
    Dataset<Row> none = keyed.spark.createDataFrame(List.<Row>of(), EDGES);
    LoadOutcome o = keyed.load(none, TestTable.T1);
    assertEquals(LoadStatus.SUCCEEDED, o.status(), o.message());
    assertFalse(o.committed(), "nothing to change in an empty table");
    assertEquals(v, keyed.version());

    TestTable unkeyed = table("EmptyUnkeyed", EDGES, false);
    assertEquals(1, unkeyed.load(unkeyed.rows(edges().get(1)), TestTable.T1).rowsInserted());
    LoadOutcome emptied = unkeyed.load(none, TestTable.T2);
    assertEquals(LoadStatus.SUCCEEDED, emptied.status(), emptied.message());
    assertEquals(1, emptied.rowsDeleted());
    assertEquals(0L, unkeyed.spark.read().format("delta").load(unkeyed.spec.targetPath()).count());
  }
}
