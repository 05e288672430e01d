package io.weaver.load.expectations;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.count_distinct;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.to_json;

import io.weaver.catalogue.NamedRow;
import io.weaver.catalyst.compat.SparkLine;
import io.weaver.check.Check;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;

/**
 * Validation of staging rows and delete keys before anything is written (docs/table-contract.md,
 * "Load").
 *
 * <p>One aggregate job computes every count (rows, failing casts, nulls, distinct keys); further
 * jobs run only to fetch at most {@value #SAMPLE} offending keys when a count is not zero, and one
 * to look for keys both staged and deleted. Data never reaches the driver.
 */
public final class StagingValidator {
  static final int SAMPLE = 5;

  /** Prefix of a column's value as delivered, beside its typed value, in one projection. */
  private static final String RAW = "__weaver_raw_";

  private final LoadSpec spec;

  public StagingValidator(LoadSpec spec) {
    this.spec = spec;
  }

  /** Staging validated and cast to the declared types, with its row count. */
  public record Validated(Dataset<Row> rows, long rowCount, Optional<Dataset<Row>> deleteKeys) {}

  public Validated validate(Dataset<Row> staging, Optional<Dataset<Row>> deleteKeys) {
    checkShape(staging, deleteKeys);
    Dataset<Row> typed = staging.select(typedColumns(staging));
    long rows = checkValues(staging);
    Optional<Dataset<Row>> keys = deleteKeys.map(d -> validateDeleteKeys(d, typed));
    return new Validated(typed, rows, keys);
  }

  /**
   * Staging prepared for a keyed load whose value checks run inside the diff pass: {@code observed}
   * is the typed staging carrying {@code observation} (row count, failing casts, nulls, and the
   * expectations' violations) and, when expectations quarantine, {@link
   * RowExpectations#QUARANTINED}; {@code typed} the same rows without them (for a second read).
   * Duplicate keys are counted by the diff.
   */
  public record Prepared(
      Dataset<Row> raw,
      Dataset<Row> typed,
      Dataset<Row> observed,
      Observation observation,
      Optional<Dataset<Row>> deleteKeys) {}

  /**
   * Column and delete-key checks now; value checks and {@code expectations} deferred to {@link
   * #report} and {@link RowExpectations#verdict}, counted by one observation: each observed node
   * sits outside whole-stage code generation and copies every row, so the validation counts and the
   * expectations' share one (docs/performance.md, "Expectations in the diff's pass").
   */
  public Prepared prepare(
      Dataset<Row> staging, Optional<Dataset<Row>> deleteKeys, RowExpectations expectations) {
    checkShape(staging, deleteKeys);
    Dataset<Row> typed = staging.select(typedColumns(staging));
    Observation observation =
        new Observation(
            "weaver_staging_" + java.util.UUID.randomUUID().toString().replace("-", ""));
    // One projection: the typed columns under their names (what the rules read) and, beside a
    // column whose type differs, its value as delivered (what the cast and null checks read).
    List<Column> both = new ArrayList<>(List.of(typedColumns(staging)));
    for (StructField field : spec.businessSchema().fields()) {
      if (needsCast(staging, field)) {
        both.add(staging.col(ManagedValues.quote(field.name())).as(RAW + field.name()));
      }
    }
    Dataset<Row> projected = staging.select(both.toArray(new Column[0]));
    List<Column> aggregates = new ArrayList<>();
    checks(
        staging,
        aggregates,
        name -> projectedValue(staging, name),
        name -> col(ManagedValues.quote(name)));
    // The validation's counts are v0, v1, ...; the expectations' keep their own names (e0, ...).
    List<Column> metrics = new ArrayList<>(List.of(named(aggregates)));
    metrics.addAll(expectations.countedBy(observation, typed));
    projected = expectations.flagged(projected);
    Column[] named = metrics.toArray(new Column[0]);
    List<Column> out = new ArrayList<>();
    for (String name : spec.businessSchema().fieldNames()) {
      out.add(col(ManagedValues.quote(name)));
    }
    if (expectations.quarantines()) {
      out.add(col(RowExpectations.QUARANTINED));
    }
    Dataset<Row> observed =
        SparkLine.observe(
                projected, observation, named[0], Arrays.copyOfRange(named, 1, named.length))
            .select(out.toArray(new Column[0]));
    Optional<Dataset<Row>> keys = deleteKeys.map(d -> validateDeleteKeys(d, typed));
    return new Prepared(staging, typed, observed, observation, keys);
  }

  /**
   * Throws the validation failure (with samples) when the observed counts of {@link #prepare} or
   * the diff's duplicate-key count show bad input; returns the staging row count otherwise.
   */
  public long report(Prepared prepared, Map<String, Object> metrics, long duplicates) {
    List<Column> aggregates = new ArrayList<>();
    List<Check> checks = checks(prepared.raw(), aggregates);
    // The observation also holds the expectations' counts (e0, e1, ...): read by name, not count.
    long[] counts = new long[aggregates.size()];
    if (metrics.containsKey("v0")) {
      for (int i = 0; i < counts.length; i++) {
        counts[i] = ((Number) metrics.get("v" + i)).longValue();
      }
    } else {
      // The optimizer drops the observation when staging is provably empty (an empty local
      // relation); then count directly, which costs nothing for such a staging.
      Column[] named = named(aggregates);
      Row row = prepared.raw().agg(named[0], Arrays.copyOfRange(named, 1, named.length)).head();
      for (int i = 0; i < counts.length; i++) {
        counts[i] = row.<Long>getAs("v" + i);
      }
    }
    problems(prepared.raw(), checks, counts, duplicates);
    return counts[0];
  }

  private void checkShape(Dataset<Row> staging, Optional<Dataset<Row>> deleteKeys) {
    if (deleteKeys.isPresent() && !spec.incremental()) {
      throw new LoadFailure(
          spec.tableName()
              + ": the body returned delete keys but the Table is not incremental; declare"
              + " `Incremental: true` or return only the staging rows.");
    }
    checkColumns("staging", staging.columns(), businessNames());
  }

  private List<String> businessNames() {
    return Arrays.asList(spec.businessSchema().fieldNames());
  }

  private void checkColumns(String what, String[] actual, List<String> expected) {
    Set<String> present = new LinkedHashSet<>(Arrays.asList(actual));
    List<String> missing = expected.stream().filter(c -> !present.contains(c)).toList();
    List<String> extra = present.stream().filter(c -> !expected.contains(c)).toList();
    if (missing.isEmpty() && extra.isEmpty() && present.size() == actual.length) {
      return;
    }
    List<String> problems = new ArrayList<>();
    if (!missing.isEmpty()) {
      problems.add("missing column(s) " + quoted(missing));
    }
    if (!extra.isEmpty()) {
      problems.add("unexpected column(s) " + quoted(extra));
    }
    if (present.size() != actual.length) {
      problems.add("duplicate column names");
    }
    throw new LoadFailure(
        spec.tableName()
            + ": "
            + what
            + " has "
            + String.join(" and ", problems)
            + "; expected exactly "
            + quoted(expected)
            + " (names are case-sensitive, order is free).");
  }

  private boolean needsCast(Dataset<Row> staging, StructField field) {
    return !staging.schema().apply(field.name()).dataType().equals(field.dataType());
  }

  /** A column's value as delivered, in {@link #prepare}'s projection. */
  private Column projectedValue(Dataset<Row> staging, String name) {
    return needsCast(staging, spec.businessSchema().apply(name))
        ? col(ManagedValues.quote(RAW + name))
        : col(ManagedValues.quote(name));
  }

  private Column[] typedColumns(Dataset<Row> staging) {
    List<Column> columns = new ArrayList<>();
    for (StructField field : spec.businessSchema().fields()) {
      Column source = staging.col(ManagedValues.quote(field.name()));
      Column cast =
          staging.schema().apply(field.name()).dataType().equals(field.dataType())
              ? source
              // TRY mode gives ANSI results; failures were counted (and refused) beforehand.
              : source.try_cast(field.dataType());
      columns.add(cast.as(field.name()));
    }
    return columns.toArray(new Column[0]);
  }

  /** The aggregates named {@code v0, v1, ...} in order, so their results are read by name. */
  private static Column[] named(List<Column> aggregates) {
    Column[] named = new Column[aggregates.size()];
    for (int i = 0; i < named.length; i++) {
      named[i] = aggregates.get(i).as("v" + i);
    }
    return named;
  }

  /** The one aggregate pass; returns the staging row count. */
  private long checkValues(Dataset<Row> staging) {
    List<Column> aggregates = new ArrayList<>();
    List<Check> checks = checks(staging, aggregates);
    if (spec.keyed()) {
      aggregates.add(count_distinct(struct(keyColumns(staging))));
    }
    // The counts are v0, v1, ...; with a key, the last one is its distinct count.
    Column[] named = named(aggregates);
    Row row = staging.agg(named[0], Arrays.copyOfRange(named, 1, named.length)).head();
    long[] counts = new long[checks.size() + 1];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = row.<Long>getAs("v" + i);
    }
    long duplicates = spec.keyed() ? counts[0] - row.<Long>getAs("v" + (checks.size() + 1)) : 0;
    problems(staging, checks, counts, duplicates);
    return counts[0];
  }

  /**
   * The value checks: fills {@code aggregates} with the row count followed by one count per check
   * (failing casts, then nulls in not-null columns) and returns the checks in the same order.
   */
  private List<Check> checks(Dataset<Row> staging, List<Column> aggregates) {
    return checks(
        staging,
        aggregates,
        name -> staging.col(ManagedValues.quote(name)),
        name ->
            staging
                .col(ManagedValues.quote(name))
                .try_cast(spec.businessSchema().apply(name).dataType()));
  }

  /**
   * The checks over a source that gives each column's value as delivered ({@code delivered}) and
   * cast to its declared type ({@code typed}): the same checks in the same order whichever dataset
   * holds them. {@code staging} gives the delivered types.
   */
  private List<Check> checks(
      Dataset<Row> staging,
      List<Column> aggregates,
      java.util.function.Function<String, Column> delivered,
      java.util.function.Function<String, Column> typed) {
    List<Check> checks = new ArrayList<>();
    aggregates.add(count(lit(1)));
    for (StructField field : spec.businessSchema().fields()) {
      Column c = delivered.apply(field.name());
      if (needsCast(staging, field)) {
        Column failing = c.isNotNull().and(typed.apply(field.name()).isNull());
        aggregates.add(count_if(failing));
        checks.add(
            new Check(
                failing,
                field.name(),
                "value(s) cannot be cast to " + field.dataType().sql() + " (ANSI cast)"));
      }
    }
    for (String name : notNullColumns()) {
      Column isNull = delivered.apply(name).isNull();
      aggregates.add(count_if(isNull));
      String role =
          spec.primaryKey().contains(name)
              ? "primary-key"
              : spec.sequenceColumn().map(name::equals).orElse(false) ? "sequence" : "Not null";
      checks.add(new Check(isNull, name, "null(s) in " + role + " column"));
    }
    return checks;
  }

  /** {@code counts}: the row count, then one count per check. Throws when any is not zero. */
  private void problems(Dataset<Row> staging, List<Check> checks, long[] counts, long duplicates) {
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < checks.size(); i++) {
      long n = counts[i + 1];
      if (n > 0) {
        Check check = checks.get(i);
        problems.add(
            "column "
                + ManagedValues.quote(check.column())
                + ": "
                + n
                + " "
                + check.what()
                + "; sample "
                + sample(staging.filter(check.condition()), check.column()));
      }
    }
    if (spec.keyed() && duplicates > 0 && spec.sequenceColumn().isPresent()) {
      problems.add(
          "primary key "
              + quoted(spec.primaryKey())
              + ": "
              + duplicates
              + " row(s) repeat their key's highest "
              + ManagedValues.quote(spec.sequenceColumn().get())
              + ", so which one is newest is unknown; sample keys "
              + sample(tiedNewest(staging), spec.sequenceColumn().get()));
    } else if (spec.keyed() && duplicates > 0) {
      Dataset<Row> repeated =
          staging.groupBy(keyColumns(staging)).count().filter(col("count").gt(1));
      problems.add(
          "primary key "
              + quoted(spec.primaryKey())
              + ": "
              + duplicates
              + " duplicate row(s); sample keys "
              + sample(repeated, null));
    }
    if (!problems.isEmpty()) {
      throw new LoadFailure(
          spec.tableName()
              + ": staging rows rejected, nothing written: "
              + String.join("; ", problems)
              + ". Fix the body's result and load again.");
    }
  }

  private Dataset<Row> validateDeleteKeys(Dataset<Row> deleteKeys, Dataset<Row> typed) {
    checkColumns("the delete-key result", deleteKeys.columns(), spec.primaryKey());
    List<Column> columns = new ArrayList<>();
    for (String key : spec.primaryKey()) {
      columns.add(
          deleteKeys
              .col(ManagedValues.quote(key))
              .cast(spec.businessSchema().apply(key).dataType())
              .as(key));
    }
    Dataset<Row> keys = deleteKeys.select(columns.toArray(new Column[0])).distinct();
    Dataset<Row> both =
        typed.select(keyColumns(typed)).join(keys, spec.primaryKey().toArray(new String[0]));
    List<String> sample = jsonSample(both, null);
    if (!sample.isEmpty()) {
      throw new LoadFailure(
          spec.tableName()
              + ": primary key "
              + quoted(spec.primaryKey())
              + ": keys both staged and in the delete keys, sample "
              + sample
              + "; a key is either loaded or deleted. Nothing written.");
    }
    return keys;
  }

  /** The primary key, the sequence column (nothing orders a null) and the Not null columns. */
  private List<String> notNullColumns() {
    LinkedHashSet<String> names = new LinkedHashSet<>(spec.primaryKey());
    spec.sequenceColumn().ifPresent(names::add);
    names.addAll(spec.notNull());
    return List.copyOf(names);
  }

  /** Keys whose highest sequence value is held by more than one staging row, with that value. */
  private Dataset<Row> tiedNewest(Dataset<Row> staging) {
    String seq = spec.sequenceColumn().orElseThrow();
    Column value = staging.col(ManagedValues.quote(seq));
    List<Column> keyAndValue = new ArrayList<>(List.of(keyColumns(staging)));
    keyAndValue.add(value);
    List<String> joinedOn = new ArrayList<>(spec.primaryKey());
    joinedOn.add(seq);
    Dataset<Row> newest = staging.groupBy(keyColumns(staging)).agg(functions.max(value).as(seq));
    return staging
        .groupBy(keyAndValue.toArray(new Column[0]))
        .count()
        .filter(col("count").gt(1))
        .join(newest, joinedOn.toArray(new String[0]));
  }

  private Column[] keyColumns(Dataset<Row> rows) {
    return spec.primaryKey().stream()
        .map(k -> rows.col(ManagedValues.quote(k)))
        .toArray(Column[]::new);
  }

  /** Up to {@value #SAMPLE} offending keys, with the value of {@code column}, as JSON. */
  private String sample(Dataset<Row> offending, String column) {
    return jsonSample(offending, column).toString();
  }

  private List<String> jsonSample(Dataset<Row> offending, String column) {
    List<String> names = new ArrayList<>(spec.primaryKey());
    if (column != null && !names.contains(column)) {
      names.add(column);
    }
    Column[] cols =
        names.stream().map(n -> offending.col(ManagedValues.quote(n))).toArray(Column[]::new);
    return offending
        .select(to_json(struct(cols)).as("sample"))
        .limit(SAMPLE)
        .collectAsList()
        .stream()
        .map(r -> NamedRow.of(r).string("sample"))
        .toList();
  }

  private static String quoted(List<String> names) {
    return names.stream().map(ManagedValues::quote).toList().toString();
  }

  private record Check(Column condition, String column, String what) {}
}
