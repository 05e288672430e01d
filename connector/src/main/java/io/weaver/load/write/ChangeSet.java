package io.weaver.load.write;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.xxhash64;

import io.weaver.catalyst.keys.KeyFilter;
import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.diff.ChangeDetector;
import io.weaver.load.diff.UniqueKeyRejector;
import io.weaver.load.expectations.RowExpectations;
import io.weaver.load.records.QuarantineRecords;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;

/**
 * Pass 2 of a keyed load: the changing rows fetched from staging into the change set the MERGE
 * reads, the Bloom filter of their keys that narrows the MERGE's target side, and the rejected rows
 * for {@code _.LoadRejection}.
 */
public final class ChangeSet {
  /**
   * Incoming changed keys up to this many are broadcast to fetch their rows (bounded driver use).
   */
  static final long BROADCAST_KEYS = 200_000;

  /**
   * Change sets up to this many rows give the MERGE a Bloom filter of their keys (about 10 bits a
   * key at {@link #KEY_FILTER_FPP}: 240 kB at the bound, shipped with the MERGE's tasks). Delta
   * records the condition's SQL text in the commit's history, where the filter shows as a short
   * label ({@link KeyFilter}), not as its bytes.
   */
  static final long KEY_FILTER_ROWS = BROADCAST_KEYS;

  /** The filter's false-positive rate: 1 % of unchanged target rows still reach the joins. */
  static final double KEY_FILTER_FPP = 0.01;

  private ChangeSet() {}

  /**
   * Pass 2: the change set with business columns and signature, checkpointed (the one
   * materialisation the MERGE reads). Incoming keys (insert, update, revive, rejected) take their
   * row from staging; deletes need only the key.
   */
  static Dataset<Row> fetch(
      LoadSpec spec,
      ChangeDetector detector,
      Dataset<Row> typed,
      Dataset<Row> changedKeys,
      ChangeCounts counts) {
    long incoming =
        counts.inserted()
            + counts.updated()
            + counts.revived()
            + counts.rejected()
            + counts.quarantined();
    Dataset<Row> wanted =
        changedKeys.filter(col(ChangeDetector.OP).notEqual(ChangeDetector.DELETE));
    // With a sequence column a key may have several staging rows: the one fetched is the key's
    // newest, whose value is unique (a tie fails the load) and never null (validated).
    Dataset<Row> staged = typed;
    List<String> joinedOn = new ArrayList<>(spec.primaryKey());
    Optional<Column> sequence = detector.sequence(typed);
    if (sequence.isPresent()) {
      staged = typed.withColumn(ChangeDetector.SEQ, sequence.get());
      joinedOn.add(ChangeDetector.SEQ);
    }
    // The signature is computed after the join: only for the fetched rows.
    Dataset<Row> fetched =
        staged
            .join(
                incoming <= BROADCAST_KEYS ? broadcast(wanted) : wanted,
                joinedOn.toArray(new String[0]),
                "inner")
            .withColumn(ChangeDetector.SIG, detector.signature(staged));
    Dataset<Row> deleted =
        changedKeys.filter(col(ChangeDetector.OP).equalTo(ChangeDetector.DELETE));
    Dataset<Row> changeSet =
        fetched.unionByName(deleted, true).select(changeColumns(spec)).localCheckpoint(true);
    long expected = counts.changed() + counts.rejected() + counts.quarantined();
    long actual = changeSet.count();
    if (actual != expected) {
      throw new LoadFailure(
          spec.tableName()
              + ": staging returned different rows on its second read ("
              + actual
              + " changed rows fetched, "
              + expected
              + " expected); nothing written. The body must return the same rows when read twice"
              + " within one load.");
    }
    return changeSet;
  }

  /**
   * The target rows a bounded set of {@code rows} keys touches (the change set's keys without its
   * rejections for the MERGE, the replaced keys for the direct writer's locate pass), as a
   * predicate on the target alone: a Bloom filter of those keys (hashed with xxhash64), tested
   * against each target row's key. It holds for every matched row and for about 1 % of the others,
   * so Spark can filter the target below the MERGE's joins, which then shuffle only about the rows
   * that change instead of every row of the touched files (see {@link #KEY_FILTER_ROWS}). Only for
   * key types whose equal values hash equally.
   */
  static Optional<Column> keyFilter(LoadSpec spec, Dataset<Row> keys, long rows) {
    if (rows > KEY_FILTER_ROWS) {
      return Optional.empty();
    }
    List<Column> sourceHashed = new ArrayList<>();
    List<Column> targetHashed = new ArrayList<>();
    for (String key : spec.primaryKey()) {
      org.apache.spark.sql.types.DataType type = spec.businessSchema().apply(key).dataType();
      if (!hashesLikeItJoins(type)) {
        return Optional.empty();
      }
      // Both sides hashed as the declared type, so a target column stored narrower still agrees.
      sourceHashed.add(col(ManagedValues.quote(key)).cast(type));
      targetHashed.add(KeyedMerge.target(key).cast(type));
    }
    Column[] sourceKeys = sourceHashed.toArray(new Column[0]);
    Column[] targetKeys = targetHashed.toArray(new Column[0]);
    org.apache.spark.util.sketch.BloomFilter filter =
        keys.stat().bloomFilter(xxhash64(sourceKeys), Math.max(1, rows), KEY_FILTER_FPP);
    return Optional.of(
        KeyFilter.mightContain(
            xxhash64(targetKeys), KeyFilter.KeySet.of(filter, Math.max(1, rows))));
  }

  /**
   * Key types whose equal values always hash equally: not floating point (a join equates negative
   * and positive zero and every NaN, the hash does not) and not strings under a collation other
   * than binary.
   */
  private static boolean hashesLikeItJoins(org.apache.spark.sql.types.DataType type) {
    return type instanceof org.apache.spark.sql.types.IntegralType
        || type.equals(DataTypes.StringType)
        || type instanceof org.apache.spark.sql.types.DecimalType
        || type instanceof org.apache.spark.sql.types.DateType
        || type instanceof org.apache.spark.sql.types.TimestampType
        || type instanceof org.apache.spark.sql.types.TimestampNTZType
        || type instanceof org.apache.spark.sql.types.BooleanType
        || type instanceof org.apache.spark.sql.types.BinaryType;
  }

  /**
   * Rejected rows, checkpointed so they survive the change set's unpersist and do not recompute the
   * join against a target this load has changed.
   */
  static Dataset<Row> rejections(LoadSpec spec, Dataset<Row> changeSet) {
    Column key = ManagedValues.json(spec.primaryKey());
    Column row = ManagedValues.json(Arrays.asList(spec.businessSchema().fieldNames()));
    return changeSet
        .filter(col(UniqueKeyRejector.REASON).isNotNull())
        .select(col(UniqueKeyRejector.REASON).as("reason"), key.as("key_json"), row.as("row_json"))
        .localCheckpoint(true);
  }

  /**
   * Quarantined rows of the change set for {@code _.LoadQuarantine} ({@code expectations, key_json,
   * row_json}), checkpointed like the rejections.
   */
  static Dataset<Row> quarantined(
      LoadSpec spec, RowExpectations expectations, Dataset<Row> changeSet) {
    return QuarantineRecords.rows(
        spec,
        expectations,
        changeSet.filter(col(ChangeDetector.OP).equalTo(ChangeDetector.QUARANTINE)));
  }

  /** The change set's rows a commit writes: neither rejected nor quarantined. */
  static Column accepted() {
    return col(UniqueKeyRejector.REASON)
        .isNull()
        .and(col(ChangeDetector.OP).notEqual(ChangeDetector.QUARANTINE));
  }

  /**
   * The columns of pass 1's changing keys: the key, its class, its rejection and, with a sequence
   * column, the value that picks the key's row in pass 2.
   */
  public static Column[] changedKeyColumns(LoadSpec spec) {
    return spec.sequenceColumn().isPresent()
        ? keyColumns(spec, ChangeDetector.OP, UniqueKeyRejector.REASON, ChangeDetector.SEQ)
        : keyColumns(spec, ChangeDetector.OP, UniqueKeyRejector.REASON);
  }

  static Column[] keyColumns(LoadSpec spec, String... more) {
    List<Column> columns = new ArrayList<>();
    for (String key : spec.primaryKey()) {
      columns.add(col(ManagedValues.quote(key)));
    }
    for (String name : more) {
      columns.add(col(name));
    }
    return columns.toArray(new Column[0]);
  }

  private static Column[] changeColumns(LoadSpec spec) {
    List<Column> columns = new ArrayList<>();
    for (String name : spec.businessSchema().fieldNames()) {
      columns.add(col(ManagedValues.quote(name)));
    }
    columns.add(col(ChangeDetector.SIG));
    columns.add(col(ChangeDetector.OP));
    columns.add(col(UniqueKeyRejector.REASON));
    return columns.toArray(new Column[0]);
  }
}
