package io.weaver.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.check.CheckReport;
import io.weaver.findings.Severity;
import io.weaver.load.StagingProvider;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import io.weaver.testing.WeaverFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Column names Check accepts but that would break naive SQL text (docs/reliability.md,
 * "Identifiers"): backticks, quotes, {@code --}, {@code /*}, Unicode, reserved words, {@code ..}, a
 * {@code delta.`/path`} form and a 255-character name, in the primary key and the comparison
 * columns. Build, load, change detection, the catalogue and the item catalog treat each literally;
 * no other table or path is touched.
 */
class HostileIdentifierLoadTest {
  @RegisterExtension final WeaverFixture fixture = WeaverFixture.item("Hostile");

  private static final String KEY = "k`ey--x";
  private static final List<String> OTHERS =
      List.of(
          "it's",
          "say\"hi\"",
          "\u00fcn\u00ef_\u540d\u524d",
          "select",
          "a..b",
          "delta.`/tmp/weaver-evil`",
          "/*c*/",
          "l".repeat(255));

  private static String yamlKey(String name) {
    return "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String sqlName(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  @Test
  void hostileColumnNamesAreBuiltLoadedAndCataloguedLiterally() throws IOException {
    SparkSession spark = fixture.spark();
    Path evil = Path.of("/tmp/weaver-evil");
    assertFalse(Files.exists(evil), "leftover " + evil);
    String item = fixture.item();
    Path lake = fixture.lake();
    WeaverWorkspace weaver = fixture.weaver();

    StringBuilder header =
        new StringBuilder(
            "/*\nTable ID: A.Odd\nDescription: Hostile names.\nPrimary key: "
                + yamlKey(KEY)
                + "\nStability row threshold: 0\nDelete percentage threshold: 100\n"
                + "Update percentage threshold: 100\nSchema:\n  "
                + yamlKey(KEY)
                + ": int\n");
    StringBuilder select = new StringBuilder("select 1 as " + sqlName(KEY));
    for (String c : OTHERS) {
      header.append("  ").append(yamlKey(c)).append(": string\n");
      select.append(", 'v' as ").append(sqlName(c));
    }
    fixture.write("Tables/A.Odd.sql", header + "*/\n" + select + ";\n");

    CheckReport report = weaver.check();
    assertTrue(
        report.findings().stream().noneMatch(f -> f.severity() == Severity.ERROR),
        report.findings().toString());
    weaver.build(Scope.all(), false);
    List<LoadResult> first = weaver.load(Scope.all(), false);
    assertEquals(LoadStatus.SUCCEEDED, first.get(0).status(), first.get(0).message());
    assertEquals(1, first.get(0).rowsInserted());

    // A second load through a DataFrame: one changed value in a hostile column, one new key.
    StructType schema = new StructType().add(KEY, DataTypes.IntegerType);
    for (String c : OTHERS) {
      schema = schema.add(c, DataTypes.StringType);
    }
    List<Row> rows = new ArrayList<>();
    for (int id = 1; id <= 2; id++) {
      Object[] values = new Object[OTHERS.size() + 1];
      values[0] = id;
      for (int i = 0; i < OTHERS.size(); i++) {
        values[i + 1] = id == 1 && OTHERS.get(i).equals("a..b") ? "changed" : "v";
      }
      rows.add(RowFactory.create(values));
    }
    var staging = spark.createDataFrame(rows, schema);
    List<LoadResult> second =
        weaver.loadWith(
            item + ".A.Odd",
            false,
            (t, c) -> new StagingProvider.Staging(staging, Optional.empty(), Optional.empty()));
    LoadResult r = second.get(0);
    assertEquals(LoadStatus.SUCCEEDED, r.status(), r.message());
    assertEquals(1, r.rowsInserted());
    assertEquals(1, r.rowsUpdated());

    // Read back through the item catalog with the names quoted: the values are where they belong.
    Row back =
        spark
            .sql(
                "select "
                    + sqlName("a..b")
                    + ", "
                    + sqlName("l".repeat(255))
                    + " from "
                    + item
                    + ".A.Odd where "
                    + sqlName(KEY)
                    + " = 1")
            .first();
    assertEquals("changed", back.getString(0));
    assertEquals("v", back.getString(1));

    List<String> physical = List.of(fixture.rows("A.Odd").columns());
    assertTrue(physical.contains(KEY) && physical.containsAll(OTHERS), physical.toString());

    List<String> catalogued =
        spark
            .read()
            .format("delta")
            .load(fixture.cataloguePath(CatalogueTable.COLUMN_DICTIONARY))
            .select("column_name")
            .collectAsList()
            .stream()
            .map(x -> x.getString(0))
            .toList();
    assertTrue(catalogued.contains(KEY) && catalogued.containsAll(OTHERS), catalogued.toString());

    assertFalse(Files.exists(evil), "a column name never becomes a path");
    try (Stream<Path> files = Files.walk(lake)) {
      assertTrue(files.allMatch(p -> p.normalize().startsWith(lake)));
    }
  }
}
