package io.weaver.warehouse;

import static io.weaver.warehouse.TsqlNames.literal;
import static io.weaver.warehouse.TsqlNames.quote;

import io.weaver.catalogue.CatalogueTable;
import io.weaver.json.Json;
import io.weaver.metadata.Expectation;
import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlToken;
import io.weaver.metadata.sql.SqlTokenizer;
import io.weaver.metadata.sql.TextOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The load procedure's row expectations (docs/table-contract.md, "Expectations") as T-SQL
 * fragments, for {@link LoadProcedure} to place: the same semantics as the Lakehouse load.
 *
 * <ul>
 *   <li>Each staging row gets one flag per expectation, {@code CASE WHEN (rule) THEN 0 ELSE 1 END},
 *       so a rule that is false <em>or null</em> is violated. The rule is placed verbatim inside
 *       parentheses (Check has read it: one expression, business columns only).
 *   <li>The counts are taken over staging before anything is written; a {@code fail} expectation
 *       that a row violates, or a quarantine above its {@code max percentage} of staging rows,
 *       throws {@link LoadProcedure#VALIDATION_ERROR} naming the Table, the expectation, the count
 *       and up to five keys.
 *   <li>A row that violates a {@code quarantine} expectation is not loaded (the change detection
 *       classes it {@code Q}, which no write, gate or unique key touches: a keyed Table's target
 *       row for its key stays exactly as it is); it goes to {@code _.LoadQuarantine} with its key
 *       and row as JSON, in the load's transaction.
 *   <li>Counts per expectation, zeros included, with up to twenty sample keys of {@code warn}
 *       expectations, go to {@code _.LoadExpectation} in the load's transaction.
 * </ul>
 *
 * <p>Sample keys are a row's primary key as JSON ({@code {"id":1}}); an unkeyed Table's sample is
 * the whole row, as the Lakehouse load samples them. {@code sample_keys} is a JSON list of them,
 * empty but for {@code warn}, as the Lakehouse load records it.
 */
final class ExpectationStatements {
  /** Keys a failure message names per expectation. */
  static final int FAIL_SAMPLE = 5;

  /** Keys a warning records per expectation. */
  static final int WARN_SAMPLE = 20;

  private final WarehouseTable t;
  private final String staging;
  private final List<Expectation> expectations;

  ExpectationStatements(WarehouseTable t, String staging) {
    this.t = t;
    this.staging = staging;
    this.expectations = t.declaration().expectations();
  }

  /** Whether the Table declares any expectation. */
  boolean any() {
    return !expectations.isEmpty();
  }

  /** Whether any expectation quarantines. */
  boolean quarantines() {
    return expectations.stream().anyMatch(e -> e.action() == Expectation.Action.QUARANTINE);
  }

  /** The staging table's flag columns, one per expectation. */
  List<String> flagColumns() {
    List<String> defs = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      defs.add(flag(i) + " bit NULL");
    }
    return defs;
  }

  /**
   * {@code alias.[flag] = CASE WHEN (rule) THEN 0 ELSE 1 END} for every expectation: the
   * assignments of an {@code UPDATE alias … FROM staging AS alias}.
   */
  List<String> flagSets(String alias) {
    List<String> sets = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      String rule = withoutTrailingComment(expectations.get(i).rule());
      sets.add(alias + "." + flag(i) + " = CASE WHEN (" + rule + ") THEN 0 ELSE 1 END");
    }
    return sets;
  }

  /**
   * The rule up to the end of its last token: a trailing {@code --} comment would swallow the
   * closing parenthesis. A comment inside the rule is followed by more of it on a later line.
   */
  static String withoutTrailingComment(String rule) {
    List<SqlToken> tokens = SqlTokenizer.tokenize(rule, SqlDialect.TSQL, 1, 1);
    if (tokens.isEmpty()) {
      return rule.strip();
    }
    return rule.substring(0, new TextOffsets(rule).end(tokens.get(tokens.size() - 1))).strip();
  }

  /** Whether the row {@code alias} of staging violates a quarantine expectation. */
  String quarantined(String alias) {
    List<String> any = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      if (expectations.get(i).action() == Expectation.Action.QUARANTINE) {
        any.add(alias + "." + flag(i) + " = 1");
      }
    }
    return any.size() == 1 ? any.get(0) : "(" + String.join(" OR ", any) + ")";
  }

  /**
   * Counts over staging ({@code @weaver_staged}, one {@code @weaver_expect_n} per expectation and
   * {@code @weaver_quarantined}), then the verdict: the failure, if any, thrown before anything is
   * written; then the sample keys of {@code warn} expectations that a row violates.
   */
  String decide() {
    Fragment f = new Fragment();
    f.comment(
        "Expectations: a row violates a rule that is false or null. Counted over staging, decided"
            + " before anything is written.");
    List<String> names = new ArrayList<>(List.of("@weaver_staged bigint"));
    for (int i = 0; i < expectations.size(); i++) {
      names.add(count(i) + " bigint");
    }
    names.add("@weaver_quarantined bigint");
    f.line("DECLARE " + String.join(", ", names) + ";");
    f.line("SELECT");
    f.line("    @weaver_staged = COUNT_BIG(*),");
    for (int i = 0; i < expectations.size(); i++) {
      f.line("    " + count(i) + " = COUNT_BIG(CASE WHEN s." + flag(i) + " = 1 THEN 1 END),");
    }
    f.line(
        "    @weaver_quarantined = "
            + (quarantines() ? "COUNT_BIG(CASE WHEN " + quarantined("s") + " THEN 1 END)" : "0"));
    f.line("FROM " + staging + " AS s;");
    verdict(f);
    for (int i = 0; i < expectations.size(); i++) {
      if (expectations.get(i).action() == Expectation.Action.WARN) {
        f.line("DECLARE " + sampleVariable(i) + " nvarchar(max);");
        f.line("IF " + count(i) + " > 0");
        f.line(
            "    SET "
                + sampleVariable(i)
                + " = (SELECT CONCAT(N'[', STRING_AGG(CONCAT(N'\"', STRING_ESCAPE([k], 'json'),"
                + " N'\"'), N','), N']') FROM "
                + samples(i, WARN_SAMPLE)
                + ");");
      }
    }
    return f.fragment();
  }

  private void verdict(Fragment f) {
    boolean anyCheck =
        expectations.stream()
            .anyMatch(e -> e.action() == Expectation.Action.FAIL || e.maxPercentage().isPresent());
    if (!anyCheck) {
      return;
    }
    f.line("DECLARE @weaver_expectation_failure varchar(4000);");
    for (int i = 0; i < expectations.size(); i++) {
      Expectation e = expectations.get(i);
      String head = "expectation '" + e.name() + "' (" + e.rule().strip() + ")";
      String keys =
          literal("; sample keys ")
              + ", (SELECT STRING_AGG([k], N', ') FROM "
              + samples(i, FAIL_SAMPLE)
              + ")";
      if (e.action() == Expectation.Action.FAIL) {
        f.line("IF " + count(i) + " > 0");
        f.line(
            "    SET @weaver_expectation_failure = CONCAT(@weaver_expectation_failure + N'; ', "
                + literal(head + " fails: ")
                + ", "
                + count(i)
                + ", N' of ', @weaver_staged, N' staging rows violate it', "
                + keys
                + ");");
      } else if (e.maxPercentage().isPresent()) {
        String ceiling = percent(e.maxPercentage().get());
        f.line(
            "IF "
                + count(i)
                + " > 0 AND 100 * "
                + count(i)
                + " > "
                + ceiling
                + " * @weaver_staged");
        f.line(
            "    SET @weaver_expectation_failure = CONCAT(@weaver_expectation_failure + N'; ', "
                + literal(head + " would quarantine ")
                + ", "
                + count(i)
                + ", N' of ', @weaver_staged, N' staging rows (', CAST(ROUND(100.0 * "
                + count(i)
                + " / @weaver_staged, 2) AS decimal(5, 2)), "
                + literal("%), above its max percentage " + ceiling)
                + ", "
                + keys
                + ");");
      }
    }
    f.line("IF @weaver_expectation_failure IS NOT NULL");
    f.begin();
    f.line(
        "SET @weaver_message = CONCAT("
            + literal(
                t.qualifiedName() + ": staging rows rejected by expectations, nothing written: ")
            + ", @weaver_expectation_failure, "
            + literal(". Fix the delivery, or change the expectation's 'on violation'.")
            + ");");
    f.line("THROW " + LoadProcedure.VALIDATION_ERROR + ", @weaver_message, 1;");
    f.end();
  }

  /**
   * Inside the load's transaction: the quarantined rows into {@code _.LoadQuarantine} and the
   * counts into {@code _.LoadExpectation}, replacing what the load id recorded before (a load
   * applied again after a restore records its rows once, as the Lakehouse load replaces them).
   */
  String record() {
    Fragment f = new Fragment();
    f.comment("What this load id recorded before (applied again after a restore) is replaced.");
    for (CatalogueTable records :
        List.of(CatalogueTable.LOAD_QUARANTINE, CatalogueTable.LOAD_EXPECTATION)) {
      f.line(
          "DELETE FROM "
              + CatalogueDdl.name(records)
              + " WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;");
    }
    if (quarantines()) {
      f.comment("Quarantined rows, with the expectations they violate, their key and row as JSON.");
      f.line(
          "INSERT INTO "
              + CatalogueDdl.name(CatalogueTable.LOAD_QUARANTINE)
              + " ([load_id], [table_id], [expectations], [key_json], [row_json])");
      f.line("SELECT @load_id, @weaver_table_id, " + quarantineNames("s") + ",");
      f.line("    " + (t.keyed() ? json("s", t.primaryKey()) : "NULL") + ",");
      f.line("    " + json("s", business()));
      f.line("FROM " + staging + " AS s");
      f.line("WHERE " + quarantined("s") + ";");
    }
    f.comment("Counts per expectation, zeros included.");
    f.line(
        "INSERT INTO "
            + CatalogueDdl.name(CatalogueTable.LOAD_EXPECTATION)
            + " ([load_id], [table_id], [expectation], [action], [rows_violating], [sample_keys])");
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      Expectation e = expectations.get(i);
      rows.add(
          "(@load_id, @weaver_table_id, "
              + literal(e.name())
              + ", "
              + literal(e.action().word())
              + ", "
              + count(i)
              + ", "
              + (e.action() == Expectation.Action.WARN
                  ? "COALESCE(" + sampleVariable(i) + ", N'[]')"
                  : "N'[]'")
              + ")");
    }
    f.line("VALUES " + String.join(",\n" + f.pad() + "    ", rows) + ";");
    return f.fragment();
  }

  /** The JSON list of the quarantine expectations row {@code alias} violates. */
  private String quarantineNames(String alias) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      Expectation e = expectations.get(i);
      if (e.action() == Expectation.Action.QUARANTINE) {
        parts.add(
            "CASE WHEN "
                + alias
                + "."
                + flag(i)
                + " = 1 THEN "
                + literal(Json.write(e.name()))
                + " END");
      }
    }
    if (parts.size() == 1) {
      String only =
          expectations.stream()
              .filter(e -> e.action() == Expectation.Action.QUARANTINE)
              .findFirst()
              .orElseThrow()
              .name();
      return literal(Json.write(List.of(only)));
    }
    return "CONCAT(N'[', CONCAT_WS(N',', " + String.join(", ", parts) + "), N']')";
  }

  /** {@code (SELECT TOP n key AS [k] FROM staging WHERE flag ORDER BY [k]) AS [sample]}. */
  private String samples(int index, int limit) {
    List<String> key = t.keyed() ? t.primaryKey() : business();
    return "(SELECT TOP "
        + limit
        + " "
        + json("x", key)
        + " AS [k] FROM "
        + staging
        + " AS x WHERE x."
        + flag(index)
        + " = 1 ORDER BY [k]) AS [sample]";
  }

  private static String json(String alias, List<String> columns) {
    return "(SELECT "
        + columns.stream().map(c -> alias + "." + quote(c)).collect(Collectors.joining(", "))
        + " FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)";
  }

  private List<String> business() {
    return t.columns().stream().map(WarehouseColumn::name).toList();
  }

  private static String flag(int index) {
    return quote("__weaver_expect_" + (index + 1));
  }

  private static String count(int index) {
    return "@weaver_expect_" + (index + 1);
  }

  private static String sampleVariable(int index) {
    return "@weaver_sample_" + (index + 1);
  }

  private static String percent(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  /** Lines at relative indent, placed by the procedure with {@link TsqlText#block}. */
  private static final class Fragment extends TsqlText {
    /** The lines, without the trailing newline {@link #text} adds. */
    String fragment() {
      String all = text();
      return all.substring(0, all.length() - 1);
    }
  }
}
