package io.weaver.load.expectations;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.array_compact;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.when;

import io.weaver.catalogue.NamedRow;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import io.weaver.load.spec.Observed;
import io.weaver.metadata.Expectation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/**
 * A Table's row expectations (docs/table-contract.md, "Expectations") as columns over typed
 * staging: whether a row violates each rule (false <em>or null</em>), counted by an observation of
 * the pass that already reads staging, and whether a row is quarantined. The decision a load takes
 * from the counts — fail, or go on with the counts recorded — is {@link #verdict}.
 */
public final class RowExpectations {
  /** A staging row that violates a quarantine expectation: the diff leaves its key alone. */
  public static final String QUARANTINED = "__weaver_quarantined";

  /** Prefix of the per-expectation violation flags of {@link #flagged}. */
  private static final String FLAG = "__weaver_violates_";

  /** Keys of violating rows kept per {@code warn} expectation. */
  static final int WARN_SAMPLE = 20;

  private final LoadSpec spec;
  private final List<Expectation> expectations;
  private Observation observation;

  /** The observed counts, read once. */
  private long[] counted;

  public RowExpectations(LoadSpec spec) {
    this.spec = spec;
    this.expectations = spec.expectations();
  }

  boolean any() {
    return !expectations.isEmpty();
  }

  /** Whether some expectation quarantines (the diff then carries {@link #QUARANTINED}). */
  public boolean quarantines() {
    return expectations.stream().anyMatch(e -> e.action() == Expectation.Action.QUARANTINE);
  }

  /**
   * The violation counts ({@code e0, e1, ...}) for {@code observation} to collect over rows that
   * {@link #flagged} marked, which then answers {@link #verdict}; each rule is analysed against
   * {@code typed} first, so a rule that does not resolve against the business columns or is not
   * boolean fails the load before any job runs. None when the Table declares no expectation.
   */
  List<Column> countedBy(Observation observation, Dataset<Row> typed) {
    if (!any()) {
      return List.of();
    }
    analyse(typed);
    this.observation = observation;
    List<Column> counts = new ArrayList<>();
    for (int i = 0; i < expectations.size(); i++) {
      counts.add(count_if(col(FLAG + i)).as("e" + i));
    }
    return counts;
  }

  /**
   * {@code rows} with one violation flag per expectation and, when some expectation quarantines,
   * {@link #QUARANTINED}: computed in the projection, inside whole-stage code generation, so the
   * observation outside it only counts flags.
   */
  Dataset<Row> flagged(Dataset<Row> rows) {
    if (!any()) {
      return rows;
    }
    List<String> names = new ArrayList<>(Arrays.asList(rows.columns()));
    List<Column> columns = new ArrayList<>();
    for (String name : names) {
      columns.add(col(ManagedValues.quote(name)));
    }
    Column quarantine = lit(false);
    for (int i = 0; i < expectations.size(); i++) {
      columns.add(violated(expectations.get(i)).as(FLAG + i));
      if (expectations.get(i).action() == Expectation.Action.QUARANTINE) {
        quarantine = quarantine.or(col(FLAG + i));
      }
    }
    Dataset<Row> withFlags = rows.select(columns.toArray(new Column[0]));
    return quarantines() ? withFlags.withColumn(QUARANTINED, quarantine) : withFlags;
  }

  /** Whether the row violates any quarantine expectation. */
  public Column quarantined() {
    Column any = lit(false);
    for (Expectation e : expectations) {
      if (e.action() == Expectation.Action.QUARANTINE) {
        any = any.or(violated(e));
      }
    }
    return any;
  }

  /** The names of the quarantine expectations the row violates. */
  public Column quarantineNames() {
    List<Column> names = new ArrayList<>();
    for (Expectation e : expectations) {
      if (e.action() == Expectation.Action.QUARANTINE) {
        names.add(when(violated(e), lit(e.name())));
      }
    }
    return array_compact(array(names.toArray(new Column[0])));
  }

  /** A row violates a rule that is false or null. */
  static Column violated(Expectation e) {
    return not(coalesce(expr(e.rule()), lit(false)));
  }

  private void analyse(Dataset<Row> typed) {
    for (Expectation e : expectations) {
      org.apache.spark.sql.types.DataType type;
      try {
        type = typed.select(expr(e.rule())).schema().fields()[0].dataType();
      } catch (Exception failure) { // Spark's AnalysisException is a checked exception
        throw new LoadFailure(
            spec.tableName()
                + ": expectation '"
                + e.name()
                + "': rule `"
                + e.rule()
                + "` cannot be evaluated over the business columns ("
                + LoadFailure.firstLine(String.valueOf(failure.getMessage()))
                + "); fix the rule in the header (weaver check reports it too). Nothing written.");
      }
      if (!type.equals(DataTypes.BooleanType)) {
        throw new LoadFailure(
            spec.tableName()
                + ": expectation '"
                + e.name()
                + "': rule `"
                + e.rule()
                + "` is "
                + type.sql()
                + ", not boolean; write a condition such as `weight_kg > 0`. Nothing written.");
      }
    }
  }

  /**
   * The counts of the observed pass, decided: throws a {@link LoadFailure} naming every {@code
   * fail} expectation that a row violates and every quarantine above its {@code max percentage}
   * (with up to five keys each); otherwise the counts, with sample keys for {@code warn}.
   */
  public List<ExpectationCount> verdict(long stagingRows, Dataset<Row> typed) {
    if (!any()) {
      return List.of();
    }
    long[] violating = counts(typed);
    List<String> problems = new ArrayList<>();
    List<ExpectationCount> result = new ArrayList<>();
    for (int i = 0; i < violating.length; i++) {
      Expectation e = expectations.get(i);
      long n = violating[i];
      List<String> samples = List.of();
      if (n > 0 && e.action() == Expectation.Action.FAIL) {
        problems.add(
            String.format(
                Locale.ROOT,
                "expectation '%s' (%s) fails: %d of %d staging rows violate it; sample keys %s",
                e.name(),
                e.rule(),
                n,
                stagingRows,
                sampleKeys(typed, e, StagingValidator.SAMPLE)));
      } else if (n > 0
          && e.maxPercentage().isPresent()
          && 100.0 * n > e.maxPercentage().get() * stagingRows) {
        problems.add(
            String.format(
                Locale.ROOT,
                "expectation '%s' (%s) would quarantine %d of %d staging rows (%.2f%%), above its"
                    + " max percentage %s; sample keys %s",
                e.name(),
                e.rule(),
                n,
                stagingRows,
                100.0 * n / stagingRows,
                percent(e.maxPercentage().get()),
                sampleKeys(typed, e, StagingValidator.SAMPLE)));
      } else if (n > 0 && e.action() == Expectation.Action.WARN) {
        samples = sampleKeys(typed, e, WARN_SAMPLE);
      }
      result.add(new ExpectationCount(e.name(), e.action().word(), n, samples));
    }
    if (!problems.isEmpty()) {
      throw new LoadFailure(
          spec.tableName()
              + ": staging rows rejected by expectations, nothing written: "
              + String.join("; ", problems)
              + ". Fix the delivery, or change the expectation's 'on violation'.");
    }
    return result;
  }

  /** Rows that violate a quarantine expectation, per the observed counts. */
  public long quarantinedRows(Dataset<Row> typed) {
    if (!quarantines()) {
      return 0;
    }
    long[] counts = counts(typed);
    long any = 0;
    for (int i = 0; i < counts.length; i++) {
      if (expectations.get(i).action() == Expectation.Action.QUARANTINE) {
        any += counts[i];
      }
    }
    return any;
  }

  private long[] counts(Dataset<Row> typed) {
    if (counted == null) {
      counted = readCounts(typed);
    }
    return counted;
  }

  private long[] readCounts(Dataset<Row> typed) {
    long[] counts = new long[expectations.size()];
    if (observation == null) {
      // Not observed (an unkeyed load has no diff to ride): one aggregate of its own.
      analyse(typed);
    } else if (Observed.of(observation).containsKey("e0")) {
      Map<String, Object> metrics = Observed.of(observation);
      for (int i = 0; i < counts.length; i++) {
        counts[i] = ((Number) metrics.get("e" + i)).longValue();
      }
      return counts;
    }
    // The optimizer drops the observation when staging is provably empty; count directly then,
    // which costs nothing for such a staging.
    Column[] named = new Column[counts.length];
    for (int i = 0; i < named.length; i++) {
      named[i] = count_if(violated(expectations.get(i))).as("e" + i);
    }
    Row row = typed.agg(named[0], Arrays.copyOfRange(named, 1, named.length)).head();
    for (int i = 0; i < counts.length; i++) {
      counts[i] = row.<Long>getAs("e" + i);
    }
    return counts;
  }

  /** Up to {@code limit} keys (the whole row for an unkeyed Table) of rows violating {@code e}. */
  private List<String> sampleKeys(Dataset<Row> typed, Expectation e, int limit) {
    List<String> names =
        spec.keyed() ? spec.primaryKey() : Arrays.asList(spec.businessSchema().fieldNames());
    Column key = ManagedValues.json(names);
    return typed.filter(violated(e)).select(key.as("k")).limit(limit).collectAsList().stream()
        .map(r -> NamedRow.of(r).string("k"))
        .toList();
  }

  private static String percent(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
