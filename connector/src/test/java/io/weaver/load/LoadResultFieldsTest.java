package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalogue.LoadResultField;
import io.weaver.catalogue.LoadResultField.View;
import io.weaver.install.BuildOutcome;
import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.records.LoadBookkeeping;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.GateVerdict;
import io.weaver.load.spec.LoadStatus;
import io.weaver.plan.TablePlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * A load's result is defined once ({@link LoadResultField}); every place that shows or keeps it
 * derives from that list. These checks fail when a field reaches one place but not the others: the
 * records ({@link LoadResult}, {@link ChangeCounts}, {@link LoadPlan}), the result's schema, JSON
 * map and row, {@code _.LoadHistory}'s columns, a plan's schema, map and row, and the docs. The
 * published column lists below pin what users see today.
 */
class LoadResultFieldsTest {
  private static final StructType EXPECTATION =
      new StructType()
          .add("expectation", DataTypes.StringType, false)
          .add("action", DataTypes.StringType, false)
          .add("rows_violating", DataTypes.LongType, false)
          .add("sample_keys", DataTypes.createArrayType(DataTypes.StringType, false), false);

  /** LOAD WEAVER's columns as published (docs/table-contract.md, "Load"). */
  private static final StructType PUBLISHED_RESULT =
      new StructType()
          .add("load_id", DataTypes.StringType, false)
          .add("table_id", DataTypes.StringType, false)
          .add("status", DataTypes.StringType, false)
          .add("rows_inserted", DataTypes.LongType, false)
          .add("rows_updated", DataTypes.LongType, false)
          .add("rows_deleted", DataTypes.LongType, false)
          .add("rows_revived", DataTypes.LongType, false)
          .add("rows_unchanged", DataTypes.LongType, false)
          .add("rows_rejected", DataTypes.LongType, false)
          .add("target_live_rows_before", DataTypes.LongType, false)
          .add("target_live_rows_after", DataTypes.LongType, false)
          .add("delta_version", DataTypes.LongType, false)
          .add("gates_waived", DataTypes.BooleanType, false)
          .add("duration_ms", DataTypes.LongType, false)
          .add("message", DataTypes.StringType, true)
          .add("warnings", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("rows_quarantined", DataTypes.LongType, false)
          .add("rows_stale", DataTypes.LongType, false)
          .add("expectations", DataTypes.createArrayType(EXPECTATION, false), false);

  /** PLAN WEAVER's columns as published (docs/sql-statements.md, docs/plan.md). */
  private static final StructType PUBLISHED_PLAN =
      new StructType()
          .add("table_id", DataTypes.StringType, false)
          .add("build_action", DataTypes.StringType, false)
          .add("build_message", DataTypes.StringType, true)
          .add("load_status", DataTypes.StringType, false)
          .add("rows_inserted", DataTypes.LongType, false)
          .add("rows_updated", DataTypes.LongType, false)
          .add("rows_deleted", DataTypes.LongType, false)
          .add("rows_revived", DataTypes.LongType, false)
          .add("rows_unchanged", DataTypes.LongType, false)
          .add("rows_rejected", DataTypes.LongType, false)
          .add("target_live_rows_before", DataTypes.LongType, false)
          .add("target_live_rows_after", DataTypes.LongType, false)
          .add("delta_version", DataTypes.LongType, false)
          .add(
              "gates",
              DataTypes.createArrayType(
                  new StructType()
                      .add("gate", DataTypes.StringType, false)
                      .add("rows", DataTypes.LongType, false)
                      .add("live_rows", DataTypes.LongType, false)
                      .add("percent", DataTypes.DoubleType, false)
                      .add("threshold", DataTypes.IntegerType, false)
                      .add("verdict", DataTypes.StringType, false),
                  false),
              false)
          .add(
              "rejections",
              DataTypes.createArrayType(
                  new StructType()
                      .add("reason", DataTypes.StringType, true)
                      .add("key_json", DataTypes.StringType, true)
                      .add("row_json", DataTypes.StringType, true),
                  false),
              false)
          .add("message", DataTypes.StringType, true)
          .add("warnings", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("notes", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("rows_quarantined", DataTypes.LongType, false)
          .add("rows_stale", DataTypes.LongType, false)
          .add("expectations", DataTypes.createArrayType(EXPECTATION, false), false)
          .add("history_versions", DataTypes.LongType, true);

  private static final Instant AT = Instant.parse("2026-01-02T03:04:05Z");

  private static ChangeCounts counts() {
    return ChangeCounts.builder()
        .inserted(1)
        .updated(2)
        .deleted(3)
        .revived(4)
        .unchanged(5)
        .rejected(6)
        .liveBefore(7)
        .quarantined(8)
        .stale(9)
        .build();
  }

  private static LoadResult result() {
    return LoadResult.builder("L1", "I.S.T", LoadStatus.SUCCEEDED)
        .counts(counts())
        .deltaVersion(3)
        .gatesWaived(true)
        .durationMs(12)
        .message("m")
        .warnings(List.of("w"))
        .startedAt(AT)
        .loadTimestamp(AT)
        .expectations(List.of(new ExpectationCount("e", "warn", 2, List.of("{\"id\":1}"))))
        .build();
  }

  private static LoadPlan plan() {
    return new LoadPlan(
        "I.S.T",
        LoadStatus.SUCCEEDED,
        counts(),
        3,
        List.of(new GateVerdict("delete", 3, 7, 30, 42.857142, GateVerdict.PASS)),
        List.of(Map.of("reason", "unique-key:1", "key_json", "{}", "row_json", "{}")),
        "m",
        List.of("w"),
        List.of("n"),
        List.of(new ExpectationCount("e", "warn", 2, List.of())),
        OptionalLong.of(4));
  }

  private static List<String> names(StructType schema) {
    return List.of(schema.fieldNames());
  }

  private static List<String> columns(View view) {
    return LoadResultField.of(view).stream().map(LoadResultField::column).toList();
  }

  /** camelCase to snake_case: a record component's column name. */
  private static String snake(String name) {
    return name.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
  }

  @Test
  void theViewsShowWhatIsPublished() {
    assertEquals(PUBLISHED_RESULT, LoadResultField.schema(View.RESULT));
    assertEquals(PUBLISHED_PLAN, TablePlan.SCHEMA);
    assertEquals(CatalogueTable.LOAD_HISTORY.schema(), LoadResultField.schema(View.HISTORY));
  }

  @Test
  void everyFieldIsShownSomewhere() {
    for (LoadResultField f : LoadResultField.values()) {
      assertTrue(
          Arrays.stream(View.values()).anyMatch(f::shownIn), f + " is in no view: remove it");
    }
  }

  /**
   * Every component of the records a result is made of is a field of the result or of its history:
   * a count added to {@link ChangeCounts} or a component added to {@link LoadResult} without its
   * field fails here.
   */
  @Test
  void everyRecordComponentIsAField() {
    Set<String> fields = new LinkedHashSet<>(columns(View.RESULT));
    fields.addAll(columns(View.HISTORY));
    List<String> components = new ArrayList<>();
    for (var c : LoadResult.class.getRecordComponents()) {
      if (c.getName().equals("counts")) {
        for (var count : ChangeCounts.class.getRecordComponents()) {
          components.add(countColumn(count.getName()));
        }
      } else {
        components.add(snake(c.getName()));
      }
    }
    assertEquals(
        Set.copyOf(components),
        fields.stream()
            .filter(f -> !f.equals("finished_at"))
            .collect(java.util.stream.Collectors.toSet()),
        "LoadResult's components (ChangeCounts' counted as rows_*) and the result and history fields");
  }

  /** A count's column: {@code rows_<count>}, except the live rows. */
  private static String countColumn(String component) {
    return component.equals("liveBefore") ? "target_live_rows_before" : "rows_" + snake(component);
  }

  /** ChangeCounts holds its counts in the order every view shows them (the history table's). */
  @Test
  void changeCountsFollowTheFieldsOrder() {
    List<String> counts =
        Arrays.stream(ChangeCounts.class.getRecordComponents())
            .map(c -> countColumn(c.getName()))
            .toList();
    List<String> shown = columns(View.RESULT).stream().filter(counts::contains).toList();
    assertEquals(counts, shown);
  }

  @Test
  void theResultsMapRowAndSchemaAgree() {
    LoadResult r = result();
    Map<String, Object> map = r.toMap();
    Row row = r.toRow();
    assertEquals(columns(View.RESULT), List.copyOf(map.keySet()));
    assertEquals(LoadResultField.schema(View.RESULT), row.schema());
    for (LoadResultField f : LoadResultField.of(View.RESULT)) {
      if (f != LoadResultField.EXPECTATIONS) {
        assertEquals(map.get(f.column()), row.getAs(f.column()), f.column());
      }
    }
    assertEquals(4L, map.get("rows_revived"));
    assertEquals(3L, map.get("rows_deleted"));
    assertEquals(
        List.of(
            Map.of(
                "expectation",
                "e",
                "action",
                "warn",
                "rows_violating",
                2L,
                "sample_keys",
                List.of("{\"id\":1}"))),
        map.get("expectations"));
    Row expectation = row.<List<Row>>getAs("expectations").get(0);
    assertEquals("e", expectation.getAs("expectation"));
    assertEquals(2L, (long) expectation.getAs("rows_violating"));
  }

  @Test
  void aPlansMapRowAndSchemaAgree() {
    TablePlan p = new TablePlan("I.S.T", new BuildOutcome("I.S.T", "unchanged", null), plan());
    Map<String, Object> map = p.toMap();
    Row row = p.toRow();
    assertEquals(names(TablePlan.SCHEMA), List.copyOf(map.keySet()));
    assertEquals(TablePlan.SCHEMA, row.schema());
    assertEquals(columns(View.PLAN), List.copyOf(plan().toMap().keySet()));
    Row gate = row.<List<Row>>getAs("gates").get(0);
    assertEquals(42.857142, (double) gate.getAs("percent"), "the row keeps the exact percentage");
    assertEquals(
        42.86,
        ((List<Map<String, Object>>) map.get("gates")).get(0).get("percent"),
        "JSON rounds it");
    Row rejection = row.<List<Row>>getAs("rejections").get(0);
    assertEquals("unique-key:1", rejection.getAs("reason"));
    assertEquals(4L, (long) row.getAs("history_versions"));
    assertEquals("succeeded", row.getAs("load_status"));
  }

  @Test
  void aHistoryRowHasEveryHistoryColumn() {
    assertEquals(columns(View.HISTORY), names(CatalogueTable.LOAD_HISTORY.schema()));
    Instant finished = AT.plusSeconds(1);
    Row row = LoadBookkeeping.historyRow("S.T", result(), finished);
    assertEquals(CatalogueTable.LOAD_HISTORY.schema(), row.schema());
    assertEquals("S.T", row.getAs("table_id"), "history names the Table without its item");
    assertEquals(java.sql.Timestamp.from(finished), row.getAs("finished_at"));
    assertEquals(java.sql.Timestamp.from(AT), row.getAs("started_at"));
    Map<String, Object> map = result().toMap();
    for (LoadResultField f : LoadResultField.of(View.HISTORY)) {
      if (f.shownIn(View.RESULT) && f != LoadResultField.TABLE_ID) {
        assertEquals(map.get(f.column()), row.getAs(f.column()), f.column());
      }
    }
  }

  /** The docs list the result's and the history's columns in the order the views show them. */
  @Test
  void theDocsListTheFields() throws IOException {
    String contract = Files.readString(docs().resolve("table-contract.md"));
    int result = contract.indexOf("**Result.** A load answers");
    String paragraph = contract.substring(result, contract.indexOf("Status is", result));
    assertEquals(columns(View.RESULT), backticked(paragraph, "expectations"));
    String history =
        contract.lines().filter(l -> l.startsWith("| `_.LoadHistory` |")).findFirst().orElseThrow();
    String cells = history.substring(history.indexOf("| load attempt |"));
    assertEquals(columns(View.HISTORY), backticked(cells, "rows_stale"));
  }

  /** The backticked lower-case names of {@code text}, up to and including {@code last}. */
  private static List<String> backticked(String text, String last) {
    List<String> names = new ArrayList<>();
    Matcher m = Pattern.compile("`([a-z_]+)`").matcher(text);
    while (m.find()) {
      names.add(m.group(1));
      if (m.group(1).equals(last)) {
        break;
      }
    }
    return names;
  }

  private static Path docs() {
    return Stream.of(Path.of("docs"), Path.of("../docs"))
        .filter(Files::isDirectory)
        .findFirst()
        .orElseThrow();
  }
}
