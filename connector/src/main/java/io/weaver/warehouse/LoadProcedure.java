package io.weaver.warehouse;

import static io.weaver.warehouse.TsqlNames.literal;
import static io.weaver.warehouse.TsqlNames.quote;

import io.weaver.catalogue.CatalogueTable;
import io.weaver.metadata.DeletionMode;
import io.weaver.metadata.SqlProgram;
import io.weaver.metadata.TableBody;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The generated load procedure of a Warehouse Table, {@code [_].[Load Schema.Object]}: the load
 * engine of docs/table-contract.md ("Load") written in T-SQL, run inside the Warehouse so that no
 * row passes through Spark or the client.
 *
 * <p>Order of work, chosen for Fabric Warehouse's snapshot isolation and per-table write
 * conflicts: everything that reads or refuses — staging into session temp tables, validation,
 * row expectations ({@link ExpectationStatements}), change detection, unique-key rejections, the
 * stability gates — runs before {@code BEGIN TRANSACTION}; the transaction holds only the writes
 * (the changed rows, deletes as the Table's {@code Deletes} mode says, revivals, rejections,
 * quarantined rows, expectation counts, history and state), so a refused or failed load writes nothing and a conflicting
 * load fails at commit with the engine's conflict error (24556/24706) for the caller to retry. The
 * transaction also writes the load's row history ({@link UndoTable}), which {@link
 * RestoreProcedure} undoes loads from.
 *
 * <p>Parameters: {@code @load_id} (exactly once: an id already recorded as applied returns its
 * history row and changes nothing), {@code @load_timestamp} (the load's one UTC instant), {@code
 * @waive_gates}. The body may use {@code :load_timestamp} / {@code :last_load_timestamp} (bound to
 * the procedure's variables of those names). Errors: 50001 a validation failure (an expectation
 * that fails included), 50010 a refusal by the gates; each message names the Table, the column or
 * expectation and up to five keys.
 */
public final class LoadProcedure extends TsqlText {
  /** Error number of a failed validation (the load is {@code failed}). */
  public static final int VALIDATION_ERROR = 50001;

  /**
   * Error number of a load overtaken by another load of the same Table (nothing written; running it
   * again is safe).
   */
  public static final int SUPERSEDED_ERROR = 50020;

  /** Error number of a refusal by the stability gates (the load is {@code refused}). */
  public static final int REFUSAL_ERROR = 50010;

  private static final String STAGING = "#weaver_staging";
  private static final String DELETE_KEYS = "#weaver_delete_keys";
  private static final String CHANGE = "#weaver_change";
  private static final String OP = quote("__weaver_op");
  private static final String REJECT = quote("__weaver_reject");
  private static final String STAGED_SIGNATURE = quote("__weaver_signature");

  /**
   * With a {@code Sequence column}: a staging row's rank among its key's rows, newest (highest
   * sequence value) first; rows of one value share a rank, so 1 is the key's newest value.
   */
  private static final String RANK = quote("__weaver_rank");

  private static final String INCOMING =
      "c." + OP + " IN ('I', 'U', 'R') AND c." + REJECT + " IS NULL";

  private final WarehouseTable t;
  private final DmlForm form;
  private final ExpectationStatements expectations;
  private final DeletionMode deletes;

  /** The {@code Sequence column} (docs/table-contract.md, "Sequence column"), when declared. */
  private final Optional<String> sequence;

  private LoadProcedure(WarehouseTable t, DmlForm form) {
    this.t = t;
    this.form = form;
    this.deletes = t.declaration().deletes();
    this.sequence = t.keyed() ? t.declaration().sequenceColumn() : Optional.empty();
    this.expectations = new ExpectationStatements(t, STAGING);
  }

  /** The {@code CREATE OR ALTER PROCEDURE} batch. */
  public static Batch of(WarehouseTable t, DmlForm form) {
    if (!t.declaration().hasLoadProcedure()) {
      throw new IllegalArgumentException(
          t.qualifiedName() + " declares 'Has load procedure: false': it has no load procedure");
    }
    if (!(t.declaration().body() instanceof TableBody.Sql body)) {
      throw new IllegalArgumentException(t.qualifiedName() + " has no T-SQL body");
    }
    LoadProcedure p = new LoadProcedure(t, form);
    p.write(body, SqlProgram.of(body));
    return new Batch("load-procedure", p.text());
  }

  private void write(TableBody.Sql body, SqlProgram program) {
    procedure(
        t.procedure(),
        t.tableId(),
        "@load_id varchar(64)",
        "@load_timestamp datetime2(6)",
        "@waive_gates bit = 0");
    line("DECLARE @weaver_live datetime2(6) = " + WarehouseNames.LIVE_SENTINEL + ";");
    line("DECLARE @weaver_message varchar(4000);");
    comment(
        "Exactly once: a load id already applied answers with its history row, changes nothing.");
    line(
        "IF EXISTS (SELECT 1 FROM "
            + history()
            + " WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id"
            + " AND [status] IN (N'succeeded', N'no_work'))");
    begin();
    line(
        "SELECT [load_id], [status], [rows_inserted], [rows_updated], [rows_deleted],"
            + " [rows_revived], [rows_unchanged], [rows_rejected], [target_live_rows_before],"
            + " [target_live_rows_after], [gates_waived], "
            + staleAnswer()
            + "CAST(1 AS bit) AS [already_applied]");
    line("FROM " + history() + " WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;");
    line("RETURN;");
    end();
    line(
        "DECLARE @last_load_timestamp datetime2(6) = COALESCE((SELECT [last_succeeded_at] FROM "
            + state()
            + " WHERE [table_id] = @weaver_table_id), CAST('1900-01-01T00:00:00' AS datetime2(6)));");
    comment("The load sequence this load follows; Build creates the state row at 0.");
    line(
        "DECLARE @weaver_sequence bigint = (SELECT [load_sequence] FROM "
            + state()
            + " WHERE [table_id] = @weaver_table_id);");
    line("IF @weaver_sequence IS NULL");
    line(
        "    THROW "
            + VALIDATION_ERROR
            + ", "
            + literal(t.qualifiedName() + " has no row in [_].[LoadState]; run build first")
            + ", 1;");
    staging(body, program);
    validate(program);
    if (t.keyed()) {
      keyedLoad(program);
    } else {
      replaceAll();
    }
    end();
  }

  // ---- staging -------------------------------------------------------------------------------

  private void staging(TableBody.Sql body, SqlProgram program) {
    comment("Staging: the body's setup, then its result queries into session temp tables.");
    List<String> extra = new ArrayList<>(expectations.flagColumns());
    if (sequence.isPresent()) {
      extra.add(RANK + " bigint NULL");
    }
    line(tempTable(STAGING, t.columns(), t.signed(), extra));
    String setup = StagingStatements.bind(SqlProgram.setupText(body)).strip();
    if (!setup.isEmpty()) {
      // A WITH must follow a terminated statement; an extra ';' after any statement is harmless.
      block(setup.endsWith(";") ? setup : setup + ";");
    }
    block(StagingStatements.insertInto(program.stagingQuery(), STAGING, names(t.columns())));
    program
        .deleteKeyQuery()
        .ifPresent(
            query -> {
              line(tempTable(DELETE_KEYS, t.columns(t.primaryKey()), false, List.of()));
              block(StagingStatements.insertInto(query, DELETE_KEYS, t.primaryKey()));
            });
  }

  private static String tempTable(
      String name, List<WarehouseColumn> columns, boolean signature, List<String> flags) {
    List<String> defs = new ArrayList<>();
    for (WarehouseColumn c : columns) {
      // Nullable here: nulls must reach validation, which names the column, not fail the insert.
      defs.add(quote(c.name()) + " " + c.type() + " NULL");
    }
    if (signature) {
      defs.add(STAGED_SIGNATURE + " varbinary(32) NULL");
    }
    defs.addAll(flags);
    return "CREATE TABLE " + name + " (" + String.join(", ", defs) + ");";
  }

  // ---- validation ----------------------------------------------------------------------------

  private void validate(SqlProgram program) {
    if (!t.requiredColumns().isEmpty() || t.keyed()) {
      comment("Validation: nothing is written when a check fails.");
    }
    for (String column : required()) {
      String role =
          t.primaryKey().contains(column)
              ? "primary-key"
              : sequence.map(column::equals).orElse(false) ? "sequence" : "Not null";
      String where = quote(column) + " IS NULL";
      fail(
          "EXISTS (SELECT 1 FROM " + STAGING + " WHERE " + where + ")",
          "CONCAT("
              + literal(
                  t.qualifiedName()
                      + ": staging rows rejected, nothing written: column "
                      + column
                      + ": ")
              + ", (SELECT COUNT_BIG(*) FROM "
              + STAGING
              + " WHERE "
              + where
              + "), "
              + literal(" null(s) in " + role + " column")
              + (t.keyed() && !t.primaryKey().contains(column)
                  ? ", " + literal("; sample keys ") + ", " + sample(STAGING, where, false)
                  : "")
              + ", "
              + literal(". Fix the body's result and load again.")
              + ")");
    }
    if (sequence.isPresent()) {
      rankNewestFirst();
    } else if (t.keyed()) {
      String keys = quotedKeys();
      fail(
          "EXISTS (SELECT 1 FROM " + STAGING + " GROUP BY " + keys + " HAVING COUNT_BIG(*) > 1)",
          "CONCAT("
              + literal(
                  t.qualifiedName()
                      + ": staging rows rejected, nothing written: primary key "
                      + String.join(", ", t.primaryKey())
                      + ": duplicate row(s); sample keys ")
              + ", "
              + sample(STAGING, null, true)
              + ", "
              + literal(". Fix the body's result and load again.")
              + ")");
    }
    if (program.deleteKeyQuery().isPresent()) {
      String both = "EXISTS (SELECT 1 FROM " + STAGING + " AS s WHERE " + matches("s", "d") + ")";
      fail(
          "EXISTS (SELECT 1 FROM " + DELETE_KEYS + " AS d WHERE " + both + ")",
          "CONCAT("
              + literal(
                  t.qualifiedName()
                      + ": primary key "
                      + String.join(", ", t.primaryKey())
                      + ": keys both staged and in the delete keys, sample ")
              + ", "
              + sampleOf("d", DELETE_KEYS + " AS d WHERE " + both)
              + ", "
              + literal("; a key is either loaded or deleted. Nothing written.")
              + ")");
    }
  }

  /**
   * The primary key, the sequence column (nothing orders a null) and the {@code Not null} columns:
   * without a sequence column, {@link WarehouseTable#requiredColumns}.
   */
  private List<String> required() {
    List<String> required = new ArrayList<>(t.requiredColumns());
    sequence.ifPresent(
        seq -> {
          if (!required.contains(seq)) {
            required.add(t.primaryKey().size(), seq);
          }
        });
    return required;
  }

  /**
   * With a sequence column: each staging row's {@link #RANK} among its key's rows, newest first
   * (ranked over the key's distinct values, so every row of one value gets the same rank and rank 1
   * is the key's highest value); then the load fails when two rows hold their key's highest value,
   * since which one is newest is unknown. Rows ranked below 1 are stale: superseded by a newer row
   * of their delivery.
   */
  private void rankNewestFirst() {
    String seq = quote(sequence.orElseThrow());
    String keys = prefixed("x", t.primaryKey());
    comment(
        "Sequence column "
            + sequence.get()
            + ": each staging row's rank among its key's rows, newest first (1: the key's highest"
            + " value).");
    line("UPDATE s SET s." + RANK + " = r." + RANK);
    line("FROM " + STAGING + " AS s INNER JOIN (");
    line(
        "    SELECT "
            + keys
            + ", x."
            + seq
            + ", RANK() OVER (PARTITION BY "
            + keys
            + " ORDER BY x."
            + seq
            + " DESC) AS "
            + RANK);
    line("    FROM " + STAGING + " AS x GROUP BY " + keys + ", x." + seq);
    line(") AS r ON " + matches("r", "s") + " AND r." + seq + " = s." + seq + ";");
    String newest = RANK + " = 1";
    fail(
        "EXISTS (SELECT 1 FROM "
            + STAGING
            + " WHERE "
            + newest
            + " GROUP BY "
            + quotedKeys()
            + " HAVING COUNT_BIG(*) > 1)",
        "CONCAT("
            + literal(
                t.qualifiedName()
                    + ": staging rows rejected, nothing written: primary key "
                    + String.join(", ", t.primaryKey())
                    + ": row(s) repeat their key's highest "
                    + sequence.get()
                    + ", so which one is newest is unknown; sample keys ")
            + ", "
            + sample(STAGING, newest, true)
            + ", "
            + literal(". Fix the body's result and load again.")
            + ")");
  }

  /**
   * With a sequence column: the staging rows a newer row of their key supersedes are counted stale
   * and left out, so staging holds one row per key from here on, as without one.
   */
  private void supersededRows() {
    comment(
        "Stale rows superseded by a newer row of their key in this delivery: counted, never"
            + " applied.");
    line(
        "DECLARE @weaver_superseded bigint = (SELECT COUNT_BIG(*) FROM "
            + STAGING
            + " WHERE "
            + RANK
            + " > 1);");
    line("DELETE FROM " + STAGING + " WHERE " + RANK + " > 1;");
  }

  private void fail(String condition, String message) {
    line("IF " + condition);
    begin();
    line("SET @weaver_message = " + message + ";");
    line("THROW " + VALIDATION_ERROR + ", @weaver_message, 1;");
    end();
  }

  /** Up to five keys of {@code table}'s rows meeting {@code where} (or duplicated), as text. */
  private String sample(String table, String where, boolean duplicated) {
    String from = table + " AS x" + (where == null ? "" : " WHERE x." + where);
    if (duplicated) {
      String keys = t.primaryKey().stream().map(k -> "x." + quote(k)).collect(joining());
      from += " GROUP BY " + keys + " HAVING COUNT_BIG(*) > 1";
    }
    return sampleOf("x", from);
  }

  /** Up to five primary keys of the rows of {@code from} (aliased {@code alias}), as text. */
  private String sampleOf(String alias, String from) {
    return "(SELECT STRING_AGG([k], N', ') FROM (SELECT TOP 5 "
        + keyText(alias)
        + " AS [k] FROM "
        + from
        + " ORDER BY [k]) AS [sample])";
  }

  /** A row's primary key as text: {@code a} or {@code (a, b)}. */
  private String keyText(String alias) {
    List<String> parts =
        t.primaryKey().stream()
            .map(k -> "CONVERT(varchar(400), " + alias + "." + quote(k) + ")")
            .toList();
    if (parts.size() == 1) {
      return parts.get(0);
    }
    return "CONCAT(N'(', " + String.join(", N', ', ", parts) + ", N')')";
  }

  // ---- keyed load ----------------------------------------------------------------------------

  private void keyedLoad(SqlProgram program) {
    List<String> sets = new ArrayList<>();
    sets.add("s." + STAGED_SIGNATURE + " = " + RowSignatureSql.hash(t.comparisonColumns(), "s"));
    sets.addAll(expectations.flagSets("s"));
    if (expectations.any()) {
      comment(
          "Row signatures of the staged rows (the same bytes as a Lakehouse row_signature), and"
              + " each row's expectation flags (1: the rule is false or null).");
      line("UPDATE s SET");
      line("    " + String.join(",\n" + pad() + "    ", sets));
      line("FROM " + STAGING + " AS s;");
      block(expectations.decide());
    } else {
      comment("Row signatures of the staged rows (the same bytes as a Lakehouse row_signature).");
      line("UPDATE s SET " + sets.get(0) + " FROM " + STAGING + " AS s;");
    }
    if (sequence.isPresent()) {
      supersededRows();
    }
    changes(program);
    for (int i = 0; i < t.uniqueKeys().size(); i++) {
      rejectDuplicates(i);
    }
    counts();
    gates();
    comment("The writes, in one transaction: changed rows only.");
    line("BEGIN TRANSACTION;");
    claim();
    undoKeyed();
    if (form == DmlForm.MERGE) {
      mergeChanged();
    } else {
      updateChanged();
    }
    if (!deletesKeys(program)) {
      comment("Deletes: this load deletes no key (" + deletedBy() + ").");
    } else if (deletes == DeletionMode.HARD) {
      hardDeletes();
    } else {
      softDeletes();
    }
    if (form == DmlForm.UPDATE_INSERT) {
      insertNew();
    }
    if (t.declaration().history()) {
      versions(deletesKeys(program));
    }
    rejections();
    if (expectations.any()) {
      block(expectations.record());
    }
    record(
        "@weaver_inserted",
        "@weaver_updated",
        "@weaver_deleted",
        "@weaver_revived",
        "@weaver_unchanged",
        "@weaver_rejected",
        "@weaver_live_before + @weaver_inserted + @weaver_revived - @weaver_deleted",
        sequence.isPresent() ? Optional.of("@weaver_stale") : Optional.empty());
    line("COMMIT TRANSACTION;");
    answer();
  }

  private void changes(SqlProgram program) {
    comment(
        "Change detection: I insert, U update (signature differs), R revive, N unchanged, D delete"
            + (expectations.quarantines() ? ", Q quarantined (its target row stays as it is)" : "")
            + (sequence.isPresent()
                ? ", S stale (" + sequence.get() + " below the target row's: nothing changes)."
                : "."));
    List<String> keyDefs = new ArrayList<>();
    for (WarehouseColumn c : t.columns(t.primaryKey())) {
      keyDefs.add(quote(c.name()) + " " + c.type() + " NOT NULL");
    }
    line(
        "CREATE TABLE "
            + CHANGE
            + " ("
            + String.join(", ", keyDefs)
            + ", "
            + OP
            + " char(1) NOT NULL, "
            + REJECT
            + " varchar(40) NULL);");
    String keys = prefixed("s", t.primaryKey());
    line("INSERT INTO " + CHANGE + " (" + quotedKeys() + ", " + OP + ")");
    line("SELECT " + keys + ",");
    String quarantine =
        expectations.quarantines() ? "WHEN " + expectations.quarantined("s") + " THEN 'Q' " : "";
    String inserted = "WHEN t." + quote(t.primaryKey().get(0)) + " IS NULL THEN 'I' ";
    if (sequence.isPresent()) {
      // The Lakehouse's order: a row equal to its live target row is unchanged whatever its
      // sequence value; else one strictly older than the target row (live or soft-deleted) is
      // stale; an equal value applies (a correction re-sent with the same event time lands).
      String seq = quote(sequence.get());
      line(
          "    CASE "
              + quarantine
              + inserted
              + "WHEN t."
              + WarehouseNames.DELETE_TIME
              + " = @weaver_live AND t."
              + WarehouseNames.SIGNATURE
              + " = s."
              + STAGED_SIGNATURE
              + " THEN 'N' WHEN s."
              + seq
              + " < t."
              + seq
              + " THEN 'S' WHEN t."
              + WarehouseNames.DELETE_TIME
              + " <> @weaver_live THEN 'R' ELSE 'U' END");
    } else {
      line(
          "    CASE "
              + quarantine
              + inserted
              + "WHEN t."
              + WarehouseNames.DELETE_TIME
              + " <> @weaver_live THEN 'R' WHEN t."
              + WarehouseNames.SIGNATURE
              + " <> s."
              + STAGED_SIGNATURE
              + " THEN 'U' ELSE 'N' END");
    }
    line(
        "FROM "
            + STAGING
            + " AS s LEFT JOIN "
            + t.target()
            + " AS t ON "
            + matches("t", "s")
            + ";");
    String live = "t." + WarehouseNames.DELETE_TIME + " = @weaver_live";
    if (program.deleteKeyQuery().isPresent()) {
      line("INSERT INTO " + CHANGE + " (" + quotedKeys() + ", " + OP + ")");
      line("SELECT " + prefixed("t", t.primaryKey()) + ", 'D' FROM " + t.target() + " AS t");
      line(
          "WHERE "
              + live
              + " AND EXISTS (SELECT 1 FROM "
              + DELETE_KEYS
              + " AS d WHERE "
              + matches("d", "t")
              + ");");
    } else if (deletesKeys(program)) {
      line("INSERT INTO " + CHANGE + " (" + quotedKeys() + ", " + OP + ")");
      line("SELECT " + prefixed("t", t.primaryKey()) + ", 'D' FROM " + t.target() + " AS t");
      line(
          "WHERE "
              + live
              + " AND NOT EXISTS (SELECT 1 FROM "
              + STAGING
              + " AS s WHERE "
              + matches("s", "t")
              + ");");
    } else if (!t.incremental()) {
      comment("Deletes: keep. Absent keys stay live as they are: no D, not counted, not gated.");
    }
  }

  /**
   * Unique key {@code index}: an incoming row whose complete value another row that stays live
   * holds is rejected, unless it is an update keeping its own row's value (the incumbent). Later
   * keys see only the survivors. Mirrors the Lakehouse engine's UniqueKeyRejector.
   */
  private void rejectDuplicates(int index) {
    List<String> key = t.uniqueKeys().get(index);
    String reason = "unique-key:" + (index + 1);
    comment(
        "Unique key " + (index + 1) + " (" + String.join(", ", key) + "): reason " + reason + ".");
    String complete =
        key.stream()
            .map(c -> "%s." + quote(c) + " IS NOT NULL")
            .collect(Collectors.joining(" AND "));
    String keyColumns = key.stream().map(TsqlNames::quote).collect(joining());
    line("WITH [__weaver_holder] AS (");
    line(
        "    SELECT "
            + prefixed("s", key)
            + " FROM "
            + STAGING
            + " AS s INNER JOIN "
            + CHANGE
            + " AS c ON "
            + matches("c", "s"));
    line("    WHERE " + INCOMING + " AND " + complete.replace("%s", "s"));
    line("    UNION ALL");
    line("    SELECT " + prefixed("t", key) + " FROM " + t.target() + " AS t");
    line(
        "    WHERE t."
            + WarehouseNames.DELETE_TIME
            + " = @weaver_live AND "
            + complete.replace("%s", "t")
            + " AND NOT EXISTS (SELECT 1 FROM "
            + CHANGE
            + " AS c WHERE "
            + matches("c", "t")
            + " AND (c."
            + OP
            + " = 'D' OR ("
            + INCOMING
            + ")))");
    line("), [__weaver_taken] AS (");
    line(
        "    SELECT "
            + keyColumns
            + " FROM [__weaver_holder] GROUP BY "
            + keyColumns
            + " HAVING COUNT_BIG(*) > 1");
    line(")");
    line("UPDATE c SET c." + REJECT + " = " + literal(reason));
    line("FROM " + CHANGE + " AS c INNER JOIN " + STAGING + " AS s ON " + matches("s", "c"));
    line("INNER JOIN [__weaver_taken] AS k ON " + equal("k", "s", key));
    line(
        "WHERE "
            + INCOMING
            + " AND NOT (c."
            + OP
            + " = 'U' AND EXISTS (SELECT 1 FROM "
            + t.target()
            + " AS t WHERE "
            + matches("t", "c")
            + " AND "
            + equal("t", "s", key)
            + "));");
  }

  private void counts() {
    comment("Counts, before anything is written.");
    line("DECLARE @weaver_inserted bigint, @weaver_updated bigint, @weaver_revived bigint,");
    line(
        "    @weaver_deleted bigint, @weaver_unchanged bigint, @weaver_rejected bigint, @weaver_live_before bigint;");
    line("SELECT");
    line(
        "    @weaver_inserted = COUNT_BIG(CASE WHEN "
            + OP
            + " = 'I' AND "
            + REJECT
            + " IS NULL THEN 1 END),");
    line(
        "    @weaver_updated = COUNT_BIG(CASE WHEN "
            + OP
            + " = 'U' AND "
            + REJECT
            + " IS NULL THEN 1 END),");
    line(
        "    @weaver_revived = COUNT_BIG(CASE WHEN "
            + OP
            + " = 'R' AND "
            + REJECT
            + " IS NULL THEN 1 END),");
    line("    @weaver_deleted = COUNT_BIG(CASE WHEN " + OP + " = 'D' THEN 1 END),");
    line("    @weaver_unchanged = COUNT_BIG(CASE WHEN " + OP + " = 'N' THEN 1 END),");
    line("    @weaver_rejected = COUNT_BIG(" + REJECT + ")");
    line("FROM " + CHANGE + ";");
    line(
        "SELECT @weaver_live_before = COUNT_BIG(*) FROM "
            + t.target()
            + " WHERE "
            + WarehouseNames.DELETE_TIME
            + " = @weaver_live;");
    if (sequence.isPresent()) {
      line(
          "DECLARE @weaver_stale bigint = @weaver_superseded + (SELECT COUNT_BIG(*) FROM "
              + CHANGE
              + " WHERE "
              + OP
              + " = 'S');");
    }
  }

  /**
   * The stability gates, as the Lakehouse engine decides them: from {@code Stability row threshold}
   * live rows (and at least one), a gate refuses when at least one row and at least its percentage
   * of the live rows would change; 100 turns a gate off (it is not generated).
   */
  private void gates() {
    int delete = t.declaration().deletePercentageThreshold();
    int update = t.declaration().updatePercentageThreshold();
    line("DECLARE @weaver_refusal varchar(4000);");
    if (delete >= 100 && update >= 100) {
      comment("Stability gates: both thresholds are 100, so no gate applies.");
      return;
    }
    comment("Stability gates.");
    line(
        "IF @weaver_live_before > 0 AND @weaver_live_before >= "
            + t.declaration().stabilityRowThreshold());
    begin();
    if (delete < 100) {
      gate("@weaver_deleted", delete, "deleted", "Delete");
    }
    if (update < 100) {
      gate("@weaver_updated", update, "updated", "Update");
    }
    end();
    line("IF @weaver_refusal IS NOT NULL AND @waive_gates = 0");
    begin();
    line(
        "SET @weaver_refusal = CONCAT("
            + literal(t.qualifiedName() + ": ")
            + ", @weaver_refusal, "
            + literal(". Waive the gates to apply.")
            + ");");
    line("THROW " + REFUSAL_ERROR + ", @weaver_refusal, 1;");
    end();
  }

  private void gate(String rows, int threshold, String verb, String name) {
    line("IF " + rows + " > 0 AND 100 * " + rows + " >= " + threshold + " * @weaver_live_before");
    line(
        "    SET @weaver_refusal = CONCAT(@weaver_refusal + N'; ', "
            + rows
            + ", N' of ', @weaver_live_before, N' live rows (', CAST(ROUND(100.0 * "
            + rows
            + " / @weaver_live_before, 1) AS decimal(5, 1)), "
            + literal("%) would be " + verb + "; " + name + " percentage threshold is " + threshold)
            + ");");
  }

  private void updateChanged() {
    comment("Updates and revivals: staging values, update time now, live again; insert time kept.");
    List<String> sets = updateSets();
    line("UPDATE t SET");
    line("    " + String.join(",\n" + pad() + "    ", sets));
    line("FROM " + t.target() + " AS t");
    line("INNER JOIN " + CHANGE + " AS c ON " + matches("c", "t"));
    line("INNER JOIN " + STAGING + " AS s ON " + matches("s", "c"));
    line("WHERE c." + OP + " IN ('U', 'R') AND c." + REJECT + " IS NULL;");
  }

  /** What an update or revival sets: staging values, update time now, live, new signature. */
  private List<String> updateSets() {
    List<String> sets = new ArrayList<>();
    for (WarehouseColumn c : t.columns()) {
      if (!t.primaryKey().contains(c.name())) {
        sets.add(quote(c.name()) + " = s." + quote(c.name()));
      }
    }
    sets.add(WarehouseNames.UPDATE_TIME + " = @load_timestamp");
    sets.add(WarehouseNames.DELETE_TIME + " = @weaver_live");
    sets.add(WarehouseNames.SIGNATURE + " = s." + STAGED_SIGNATURE);
    return sets;
  }

  private void insertNew() {
    comment("Inserts: insert and update time now, live; the identity column is generated.");
    line("INSERT INTO " + t.target() + " (" + insertColumns() + ")");
    line(
        "SELECT "
            + prefixed("s", names(t.columns()))
            + ", @load_timestamp, @load_timestamp, @weaver_live, s."
            + STAGED_SIGNATURE);
    line("FROM " + STAGING + " AS s INNER JOIN " + CHANGE + " AS c ON " + matches("c", "s"));
    line("WHERE c." + OP + " = 'I' AND c." + REJECT + " IS NULL;");
  }

  private void mergeChanged() {
    comment(
        "Updates, revivals and inserts in one MERGE (spark.weaver.item.<Item>.warehouseDml=merge).");
    List<String> sets = updateSets();
    line("MERGE INTO " + t.target() + " AS t");
    line("USING (");
    line(
        "    SELECT s.*, c."
            + OP
            + " FROM "
            + STAGING
            + " AS s INNER JOIN "
            + CHANGE
            + " AS c ON "
            + matches("c", "s"));
    line("    WHERE " + INCOMING);
    line(") AS s ON " + matches("t", "s"));
    line("WHEN MATCHED THEN UPDATE SET");
    line("    " + String.join(",\n" + pad() + "    ", sets.stream().map(x -> "t." + x).toList()));
    line("WHEN NOT MATCHED BY TARGET THEN INSERT (" + insertColumns() + ")");
    line(
        "    VALUES ("
            + prefixed("s", names(t.columns()))
            + ", @load_timestamp, @load_timestamp, @weaver_live, s."
            + STAGED_SIGNATURE
            + ");");
  }

  private void softDeletes() {
    comment(
        "Soft deletes: the delete time is the load timestamp; data, insert and update times stay.");
    line("UPDATE t SET " + WarehouseNames.DELETE_TIME + " = @load_timestamp");
    line("FROM " + t.target() + " AS t INNER JOIN " + CHANGE + " AS c ON " + matches("c", "t"));
    line("WHERE c." + OP + " = 'D';");
  }

  /** Whether a load can delete keys at all: delete keys, or absence from a snapshot not kept. */
  private boolean deletesKeys(SqlProgram program) {
    return program.deleteKeyQuery().isPresent()
        || (!t.incremental() && deletes != DeletionMode.KEEP);
  }

  private String deletedBy() {
    return t.incremental()
        ? "an incremental body without delete keys"
        : "Deletes: keep leaves absent keys live";
  }

  /**
   * {@code Deletes: hard}: the rows to delete are removed whole (their images are already in the
   * row history, so RESTORE inserts them back); a returning key is then an insert.
   */
  private void hardDeletes() {
    comment(
        "Hard deletes (Deletes: hard): the rows are removed; a key that returns is a new insert.");
    String c = t.aliasBeside("c");
    line("DELETE FROM " + t.target() + " WHERE EXISTS (");
    line("    SELECT 1 FROM " + CHANGE + " AS " + c + " WHERE " + c + "." + OP + " = 'D'");
    line(
        "    AND "
            + t.primaryKey().stream()
                .map(k -> c + "." + quote(k) + " = " + t.exposedName() + "." + quote(k))
                .collect(Collectors.joining(" AND "))
            + ");");
  }

  private void rejections() {
    if (t.uniqueKeys().isEmpty()) {
      return;
    }
    comment(
        "Rejected rows, with their key and row as JSON; what this load id recorded before is"
            + " replaced.");
    String rejections = CatalogueDdl.name(CatalogueTable.LOAD_REJECTION);
    line(
        "DELETE FROM "
            + rejections
            + " WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;");
    line(
        "INSERT INTO " + rejections + " ([load_id], [table_id], [reason], [key_json], [row_json])");
    line("SELECT @load_id, @weaver_table_id, c." + REJECT + ",");
    line(
        "    (SELECT "
            + prefixed("s", t.primaryKey())
            + " FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES),");
    line(
        "    (SELECT "
            + prefixed("s", names(t.columns()))
            + " FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)");
    line("FROM " + CHANGE + " AS c INNER JOIN " + STAGING + " AS s ON " + matches("s", "c"));
    line("WHERE c." + REJECT + " IS NOT NULL;");
  }

  // ---- unkeyed -------------------------------------------------------------------------------

  /** An unkeyed Table is replaced in one transaction: every row new, live, stamped now. */
  private void replaceAll() {
    String kept = "";
    if (expectations.any()) {
      comment("Each row's expectation flags (1: the rule is false or null).");
      line("UPDATE s SET");
      line("    " + String.join(",\n" + pad() + "    ", expectations.flagSets("s")));
      line("FROM " + STAGING + " AS s;");
      block(expectations.decide());
      if (expectations.quarantines()) {
        kept = " WHERE NOT " + expectations.quarantined("s");
      }
    }
    line("DECLARE @weaver_inserted bigint, @weaver_live_before bigint;");
    if (expectations.any()) {
      line("SET @weaver_inserted = @weaver_staged - @weaver_quarantined;");
    } else {
      line("SELECT @weaver_inserted = COUNT_BIG(*) FROM " + STAGING + ";");
    }
    line("SELECT @weaver_live_before = COUNT_BIG(*) FROM " + t.target() + ";");
    comment("The replacement, in one transaction.");
    line("BEGIN TRANSACTION;");
    claim();
    undoReplacement();
    line("DELETE FROM " + t.target() + ";");
    line("INSERT INTO " + t.target() + " (" + insertColumns() + ")");
    line(
        "SELECT "
            + prefixed("s", names(t.columns()))
            + ", @load_timestamp, @load_timestamp, @weaver_live");
    line("FROM " + STAGING + " AS s" + kept + ";");
    if (expectations.any()) {
      block(expectations.record());
    }
    line("DECLARE @weaver_refusal varchar(4000);");
    record(
        "@weaver_inserted",
        "0",
        "@weaver_live_before",
        "0",
        "0",
        "0",
        "@weaver_inserted",
        Optional.empty());
    line("COMMIT TRANSACTION;");
    answer();
  }

  // ---- history table (History: true) --------------------------------------------------------

  /**
   * After the writes, in their transaction: every key the load changed (inserted, updated, revived,
   * deleted) gets a new current version — its row as just written, or under {@code Deletes: hard}
   * its current version's values marked deleted — and its previous current version is closed at the
   * load's time (see {@link WarehouseHistoryTable}). {@code deletesKeys}: whether the load deletes
   * keys at all.
   */
  private void versions(boolean deletesKeys) {
    String h = WarehouseHistoryTable.name(t);
    String changed = "c." + OP + " IN ('I', 'U', 'R', 'D') AND c." + REJECT + " IS NULL";
    String columns = WarehouseHistoryTable.insertColumns(t);
    List<String> versioned = WarehouseHistoryTable.versioned(t);
    comment(
        "The history table (History: true): each changed key's new version, then its previous one"
            + " closed at the load's time.");
    if (deletes == DeletionMode.HARD && deletesKeys) {
      line("INSERT INTO " + h + " (" + columns + ")");
      line(
          "SELECT "
              + versioned.stream().map(c -> "v." + c).collect(joining())
              + ", @load_timestamp, @weaver_live, 1, 1, @load_id");
      line("FROM " + h + " AS v INNER JOIN " + CHANGE + " AS c ON " + matches("c", "v"));
      line("WHERE v." + WarehouseHistoryTable.IS_CURRENT + " = 1 AND c." + OP + " = 'D';");
    }
    line("INSERT INTO " + h + " (" + columns + ")");
    line(
        "SELECT "
            + versioned.stream().map(c -> "t." + c).collect(joining())
            + ", @load_timestamp, @weaver_live, 1, CASE WHEN t."
            + WarehouseNames.DELETE_TIME
            + " = @weaver_live THEN 0 ELSE 1 END, @load_id");
    line("FROM " + t.target() + " AS t INNER JOIN " + CHANGE + " AS c ON " + matches("c", "t"));
    line("WHERE " + changed + ";");
    line(
        "UPDATE v SET "
            + WarehouseHistoryTable.VALID_TO
            + " = @load_timestamp, "
            + WarehouseHistoryTable.IS_CURRENT
            + " = 0");
    line("FROM " + h + " AS v INNER JOIN " + CHANGE + " AS c ON " + matches("c", "v"));
    line(
        "WHERE v."
            + WarehouseHistoryTable.IS_CURRENT
            + " = 1 AND v."
            + WarehouseHistoryTable.VALID_FROM
            + " < @load_timestamp AND "
            + changed
            + ";");
  }

  // ---- row history for RESTORE ---------------------------------------------------------------

  /**
   * This load's mark, then, before any row is written, the images of the rows it updates, revives
   * or deletes (soft or hard: a removed row's image is the whole row) and the keys of the rows it
   * inserts (see {@link UndoTable}).
   */
  private void undoKeyed() {
    String undo = UndoTable.name(t);
    String head = undoHead();
    mark(undo, head);
    line(
        "INSERT INTO "
            + undo
            + " ("
            + head
            + ", "
            + String.join(", ", UndoTable.imageColumns(t))
            + ")");
    line(
        "SELECT @weaver_sequence + 1, @load_id, "
            + literal(UndoTable.IMAGE)
            + ", "
            + UndoTable.imageColumns(t).stream().map(c -> "t." + c).collect(joining()));
    line("FROM " + t.target() + " AS t INNER JOIN " + CHANGE + " AS c ON " + matches("c", "t"));
    line("WHERE c." + OP + " IN ('U', 'R', 'D') AND c." + REJECT + " IS NULL;");
    line("INSERT INTO " + undo + " (" + head + ", " + quotedKeys() + ")");
    line(
        "SELECT @weaver_sequence + 1, @load_id, "
            + literal(UndoTable.INSERTED)
            + ", "
            + prefixed("c", t.primaryKey()));
    line("FROM " + CHANGE + " AS c WHERE c." + OP + " = 'I' AND c." + REJECT + " IS NULL;");
  }

  /** This load's mark and the rows it is about to replace. */
  private void undoReplacement() {
    String undo = UndoTable.name(t);
    String head = undoHead();
    mark(undo, head);
    String columns = String.join(", ", UndoTable.imageColumns(t));
    line("INSERT INTO " + undo + " (" + head + ", " + columns + ")");
    line(
        "SELECT @weaver_sequence + 1, @load_id, "
            + literal(UndoTable.REPLACED)
            + ", "
            + columns
            + " FROM "
            + t.target()
            + ";");
  }

  private void mark(String undo, String head) {
    comment("Row history for RESTORE: this load's mark and what undoes its writes.");
    line(
        "INSERT INTO "
            + undo
            + " ("
            + head
            + ") VALUES (@weaver_sequence + 1, @load_id, "
            + literal(UndoTable.MARK)
            + ");");
  }

  private static String undoHead() {
    return UndoTable.SEQUENCE + ", " + UndoTable.LOAD_ID + ", " + UndoTable.KIND;
  }

  // ---- history, state, answer ----------------------------------------------------------------

  private void record(
      String inserted,
      String updated,
      String deleted,
      String revived,
      String unchanged,
      String rejected,
      String liveAfter,
      Optional<String> stale) {
    comment("History, in the same transaction as the rows and the state.");
    line(
        "INSERT INTO "
            + history()
            + " ([load_id], [table_id], [status], [started_at], [finished_at], [load_timestamp],");
    line(
        "    [rows_inserted], [rows_updated], [rows_deleted], [rows_revived], [rows_unchanged], [rows_rejected],");
    line(
        "    [target_live_rows_before], [target_live_rows_after], [delta_version], [gates_waived], [message]"
            + (stale.isPresent() ? ", [rows_stale]" : "")
            + ")");
    line(
        "VALUES (@load_id, @weaver_table_id, N'succeeded', @weaver_started_at, SYSUTCDATETIME(), @load_timestamp,");
    line(
        "    " + String.join(", ", inserted, updated, deleted, revived, unchanged, rejected) + ",");
    line(
        "    @weaver_live_before, "
            + liveAfter
            + ", NULL, CASE WHEN @weaver_refusal IS NULL THEN 0 ELSE 1 END, @weaver_refusal"
            + stale.map(n -> ", " + n).orElse("")
            + ");");
  }

  /**
   * The transaction's first write: the state row moves from the sequence this load read to the
   * next, or nothing is written. On SQL Server the row lock orders two loads' transactions and the
   * second finds the sequence moved; on Fabric the first committer wins anyway. Either way a load
   * never applies changes computed against rows another load has since changed.
   */
  private void claim() {
    comment(
        "Claim the next load sequence: a load of this Table that committed meanwhile stops this one.");
    line(
        "UPDATE "
            + state()
            + " SET [last_load_id] = @load_id, [last_succeeded_at] = @load_timestamp,"
            + " [load_sequence] = [load_sequence] + 1"
            + " WHERE [table_id] = @weaver_table_id AND [load_sequence] = @weaver_sequence;");
    line("IF @@ROWCOUNT = 0");
    line(
        "    THROW "
            + SUPERSEDED_ERROR
            + ", "
            + literal(
                t.qualifiedName()
                    + ": another load of this Table committed after this one started; nothing of"
                    + " this one was written. Run it again.")
            + ", 1;");
  }

  /** {@code [rows_stale], } in the answer of a Table with a sequence column, else nothing. */
  private String staleAnswer() {
    return sequence.isPresent() ? "[rows_stale], " : "";
  }

  private void answer() {
    line(
        "SELECT [load_id], [status], [rows_inserted], [rows_updated], [rows_deleted],"
            + " [rows_revived], [rows_unchanged], [rows_rejected], [target_live_rows_before],"
            + " [target_live_rows_after], [gates_waived], "
            + staleAnswer()
            + "CAST(0 AS bit) AS [already_applied]");
    line("FROM " + history() + " WHERE [load_id] = @load_id AND [table_id] = @weaver_table_id;");
  }

  // ---- text helpers --------------------------------------------------------------------------

  /** Every column but the identity: what an insert names, the same as a row image holds. */
  private String insertColumns() {
    return String.join(", ", UndoTable.imageColumns(t));
  }

  private String quotedKeys() {
    return t.primaryKey().stream().map(TsqlNames::quote).collect(joining());
  }

  private String matches(String left, String right) {
    return equal(left, right, t.primaryKey());
  }

  private static String equal(String left, String right, List<String> columns) {
    return columns.stream()
        .map(c -> left + "." + quote(c) + " = " + right + "." + quote(c))
        .collect(Collectors.joining(" AND "));
  }

  private static String prefixed(String alias, List<String> columns) {
    return columns.stream().map(c -> alias + "." + quote(c)).collect(joining());
  }

  private static List<String> names(List<WarehouseColumn> columns) {
    return columns.stream().map(WarehouseColumn::name).toList();
  }

  private static java.util.stream.Collector<CharSequence, ?, String> joining() {
    return Collectors.joining(", ");
  }

  private static String history() {
    return CatalogueDdl.name(CatalogueTable.LOAD_HISTORY);
  }

  private static String state() {
    return CatalogueDdl.name(CatalogueTable.LOAD_STATE);
  }
}
