package io.weaver.load.diff;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.rank;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.when;

import io.weaver.load.expectations.RowExpectations;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import io.weaver.load.spec.SignatureColumn;
import io.weaver.metadata.ManagedColumns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;

/**
 * Change detection of a keyed load (docs/table-contract.md, "Load") as one full outer join.
 *
 * <p>Staging (key, unique-key columns, signature) and the delete keys are joined with the target
 * projected to key, {@code row_signature}, {@code row_delete_datetime} (plus unique-key columns
 * when the Table declares unique keys), so Parquet reads only those columns. Each row gets one
 * {@link #OP} class.
 */
public final class ChangeDetector {
  public static final String OP = "__weaver_op";
  public static final String SIG = "__weaver_sig";
  static final String TARGET_SIG = "__weaver_t_sig";
  static final String TARGET_LIVE = "__weaver_t_live";
  static final String IN_STAGE = "__weaver_in_stage";
  static final String IN_DELETE = "__weaver_in_delete";
  static final String IN_TARGET = "__weaver_in_target";
  static final String TARGET_PREFIX = "__weaver_tu_";

  /**
   * A staging row that repeats its key: any second row of a key or, with a sequence column, a
   * second row holding the key's highest sequence value (which fails the load).
   */
  static final String DUPLICATE = "__weaver_duplicate";

  /** The value of the sequence column, when the Table declares one, staging and target side. */
  public static final String SEQ = "__weaver_seq";

  static final String TARGET_SEQ = "__weaver_t_seq";

  /**
   * A staging row below the highest sequence value of its key in the same delivery: never applied.
   */
  static final String SUPERSEDED = "__weaver_superseded";

  public static final String INSERT = "insert";
  public static final String UPDATE = "update";
  public static final String REVIVE = "revive";
  public static final String DELETE = "delete";
  static final String UNCHANGED = "unchanged";

  /** A live target row the load does not mention (incremental): kept, not counted. */
  static final String ABSENT = "absent";

  static final String NOTHING = "nothing";

  /**
   * A staging row that violates a quarantine expectation: not loaded, and its key's target row
   * stays exactly as it is (not updated, not deleted as absent).
   */
  public static final String QUARANTINE = "quarantine";

  /**
   * A staging row that is not applied because a row of its key with a higher sequence value exists:
   * the target's (live or soft-deleted), or another of the same delivery.
   */
  static final String STALE = "stale";

  private final LoadSpec spec;

  public ChangeDetector(LoadSpec spec) {
    this.spec = spec;
  }

  /**
   * Every key of staging, delete keys and target with its class. The staging side is narrow: key,
   * unique-key columns, the signature, the sequence value and {@link #DUPLICATE} and {@link
   * #SUPERSEDED} (a window over the key, which shares the join's partitioning, so duplicate keys
   * are found without another shuffle); business columns of changed rows are fetched afterwards
   * (see {@link #stagedColumns}).
   */
  public Dataset<Row> classify(
      SparkSession spark, Dataset<Row> narrow, Optional<Dataset<Row>> deleteKeys, long version) {
    Column[] keys =
        spec.primaryKey().stream().map(k -> col(ManagedValues.quote(k))).toArray(Column[]::new);
    Dataset<Row> incoming = narrow.withColumn(IN_STAGE, lit(true));
    if (spec.sequenceColumn().isPresent()) {
      // Newest first: row 1 is the key's winner. A second row ranked 1 ties with it (a duplicate,
      // which fails the load); a row ranked below 1 lost to a newer one of its delivery.
      var newestFirst = Window.partitionBy(keys).orderBy(col(SEQ).desc());
      incoming =
          incoming
              .withColumn(
                  DUPLICATE,
                  row_number().over(newestFirst).gt(1).and(rank().over(newestFirst).equalTo(1)))
              .withColumn(SUPERSEDED, rank().over(newestFirst).gt(1));
    } else {
      incoming =
          incoming.withColumn(
              DUPLICATE, row_number().over(Window.partitionBy(keys).orderBy(keys)).gt(1));
    }
    if (deleteKeys.isPresent()) {
      incoming = incoming.unionByName(deleteKeys.get().withColumn(IN_DELETE, lit(true)), true);
    } else {
      incoming = incoming.withColumn(IN_DELETE, lit(false));
    }

    Dataset<Row> table = targetRows(spark, version);
    List<Column> projected = new ArrayList<>();
    for (String key : spec.primaryKey()) {
      projected.add(table.col(ManagedValues.quote(key)));
    }
    projected.add(table.col(ManagedColumns.SIGNATURE).as(TARGET_SIG));
    spec.sequenceColumn()
        .ifPresent(seq -> projected.add(table.col(ManagedValues.quote(seq)).as(TARGET_SEQ)));
    projected.add(
        table
            .col(ManagedColumns.DELETE_TIME)
            .equalTo(ManagedValues.liveSentinel())
            .as(TARGET_LIVE));
    for (String column : uniqueColumns()) {
      projected.add(table.col(ManagedValues.quote(column)).as(TARGET_PREFIX + column));
    }
    projected.add(lit(true).as(IN_TARGET));
    Dataset<Row> target = table.select(projected.toArray(new Column[0]));

    Dataset<Row> joined =
        incoming.join(target, spec.primaryKey().toArray(new String[0]), "full_outer");
    return joined.withColumn(OP, op());
  }

  /**
   * Staging narrowed to what the diff carries: the primary key, the unique-key columns, the
   * signature ({@link #SIG}), the sequence value ({@link #SEQ}) and, when expectations quarantine,
   * {@link RowExpectations#QUARANTINED}.
   */
  public Dataset<Row> narrow(Dataset<Row> typed) {
    List<Column> staged = new ArrayList<>();
    for (String name : stagedColumns()) {
      staged.add(typed.col(ManagedValues.quote(name)));
    }
    staged.add(signature(typed).as(SIG));
    sequence(typed).ifPresent(seq -> staged.add(seq.as(SEQ)));
    if (Arrays.asList(typed.columns()).contains(RowExpectations.QUARANTINED)) {
      staged.add(typed.col(RowExpectations.QUARANTINED));
    }
    return typed.select(staged.toArray(new Column[0]));
  }

  /**
   * Every row of the target at {@code version}, deleted ones included: a read by path is Delta's
   * own read, which the SQL extension's live-rows rule leaves alone (docs/dataframe-api.md).
   */
  public Dataset<Row> targetRows(SparkSession spark, long version) {
    return spark.read().format("delta").option("versionAsOf", version).load(spec.targetPath());
  }

  /** The row signature of the comparison columns of {@code typed}. */
  public Column signature(Dataset<Row> typed) {
    return SignatureColumn.of(
        spec.comparisonColumns().stream().map(c -> typed.col(ManagedValues.quote(c))).toList());
  }

  /**
   * Whether a classified row is a staging row its delivery superseded; the column exists only with
   * a sequence column, so a Table without one carries nothing more through the diff's join.
   */
  static Column superseded(LoadSpec spec) {
    return spec.sequenceColumn().isPresent() ? coalesce(col(SUPERSEDED), lit(false)) : lit(false);
  }

  /** The sequence column of {@code rows}, when the Table declares one. */
  public Optional<Column> sequence(Dataset<Row> rows) {
    return spec.sequenceColumn().map(seq -> rows.col(ManagedValues.quote(seq)));
  }

  /** Staging columns the diff carries: the primary key, then the unique-key columns. */
  List<String> stagedColumns() {
    List<String> columns = new ArrayList<>(spec.primaryKey());
    columns.addAll(uniqueColumns());
    return columns;
  }

  /** Business columns that appear in a unique key but not in the primary key. */
  List<String> uniqueColumns() {
    LinkedHashSet<String> columns = new LinkedHashSet<>();
    spec.uniqueKeys().forEach(columns::addAll);
    spec.primaryKey().forEach(columns::remove);
    return List.copyOf(columns);
  }

  private Column op() {
    Column inStage = coalesce(col(IN_STAGE), lit(false));
    Column inDelete = coalesce(col(IN_DELETE), lit(false));
    Column inTarget = coalesce(col(IN_TARGET), lit(false));
    Column live = coalesce(col(TARGET_LIVE), lit(false));
    Column quarantined =
        spec.expectations().isEmpty() || !new RowExpectations(spec).quarantines()
            ? lit(false)
            : coalesce(col(RowExpectations.QUARANTINED), lit(false));
    Column superseded = superseded(spec);
    // Strictly older than the target's row: an equal value applies when the signature differs (a
    // correction re-sent with the same event time must land; an identical row changes nothing).
    Column older =
        spec.sequenceColumn().isPresent()
            ? coalesce(col(SEQ).lt(col(TARGET_SEQ)), lit(false))
            : lit(false);
    // A superseded row is never fetched or written, so it is stale before anything else (only the
    // key's newest row can be quarantined, which keeps one fetched row per key). A row equal to its
    // live target row is unchanged whatever its sequence value: it would change nothing, and the
    // no-change check (SameRows), which sees no sequence values, counts it so too.
    return when(inStage.and(superseded), lit(STALE))
        .when(inStage.and(quarantined), lit(QUARANTINE))
        .when(inStage.and(not(inTarget)), lit(INSERT))
        .when(inStage.and(live).and(col(SIG).equalTo(col(TARGET_SIG))), lit(UNCHANGED))
        .when(inStage.and(older), lit(STALE))
        .when(inStage.and(live), lit(UPDATE))
        .when(inStage, lit(REVIVE))
        .when(inDelete.and(live), lit(DELETE))
        .when(inDelete, lit(NOTHING))
        .when(live, lit(spec.deletesAbsentKeys() ? DELETE : ABSENT))
        .otherwise(lit(NOTHING));
  }
}
