package io.weaver.load;

import static org.apache.spark.sql.functions.bit_xor;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.shiftrightunsigned;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.xxhash64;

import io.weaver.load.diff.ChangeDetector;
import io.weaver.load.expectations.StagingValidator;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import io.weaver.metadata.ManagedColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The no-change check of a snapshot load: whether staging's (key, signature) pairs are exactly the
 * target's live ones, decided from two order-free checksums instead of a join.
 *
 * <p>A snapshot load changes nothing exactly when the multiset of staging's (key, signature) pairs
 * equals the set of the target's live (key, signature) pairs: no insert, update, revive or delete,
 * and no duplicate key. Both sides are summarised by the row count, the XOR of one 64-bit hash of
 * each pair and the sums of three slices of a second, differently seeded hash (slices of at most 24
 * bits, so the sums cannot overflow below 2^39 rows). Equal data always gives equal checksums;
 * different data gives equal ones only when both 64-bit hashes collide at once, which does not
 * happen by chance. When the checksums differ, the load runs its full diff, which finds out what
 * changed (and reports duplicates); the check itself decides nothing else.
 *
 * <p>The staging side is computed as an observation of the job that checkpoints staging's narrow
 * projection (the diff reads that checkpoint instead of scanning staging again), so it costs no
 * extra scan; the target side is one aggregate over the three columns the diff reads anyway.
 */
final class SameRows {
  private static final String[] NAMES = {"rows", "pair_xor", "slice_hi", "slice_mid", "slice_lo"};

  /** How many checks ran and how many found the same rows in this JVM (tests read these). */
  static final java.util.concurrent.atomic.AtomicLong CHECKED =
      new java.util.concurrent.atomic.AtomicLong();

  static final java.util.concurrent.atomic.AtomicLong MATCHED =
      new java.util.concurrent.atomic.AtomicLong();

  private SameRows() {}

  /** Loads the check applies to: keyed snapshot loads without unique keys or delete keys. */
  static boolean applies(LoadSpec spec, StagingValidator.Prepared input) {
    return spec.keyed()
        && !spec.incremental()
        && spec.uniqueKeys().isEmpty()
        && input.deleteKeys().isEmpty();
  }

  /** The checksum aggregates over rows holding the primary key and {@code signature}. */
  static Column[] checksum(List<String> primaryKey, Column signature) {
    List<Column> first = new ArrayList<>();
    List<Column> second = new ArrayList<>();
    second.add(signature);
    for (String key : primaryKey) {
      first.add(col(ManagedValues.quote(key)));
      second.add(col(ManagedValues.quote(key)));
    }
    first.add(signature);
    // A second, independent hash: the pair in the other order, under a different seed prefix.
    second.add(0, lit("weaver-same-rows"));
    Column h1 = xxhash64(first.toArray(new Column[0]));
    Column h2 = xxhash64(second.toArray(new Column[0]));
    return new Column[] {
      count(lit(1)).as(NAMES[0]),
      bit_xor(h1).as(NAMES[1]),
      sum(shiftrightunsigned(h2, 40)).as(NAMES[2]),
      sum(shiftrightunsigned(h2, 20).bitwiseAND(lit(0xFFFFFL))).as(NAMES[3]),
      sum(h2.bitwiseAND(lit(0xFFFFFL))).as(NAMES[4])
    };
  }

  /** The target side: the checksum of the live rows of the target at {@code version}. */
  static Dataset<Row> target(
      SparkSession spark, LoadSpec spec, ChangeDetector detector, long version) {
    Dataset<Row> rows = detector.targetRows(spark, version);
    Column[] sums = checksum(spec.primaryKey(), col(ManagedColumns.SIGNATURE));
    return rows.filter(col(ManagedColumns.DELETE_TIME).equalTo(ManagedValues.liveSentinel()))
        .agg(sums[0], java.util.Arrays.copyOfRange(sums, 1, sums.length));
  }

  /** Whether the staging observation and the target's aggregate row hold the same checksum. */
  static boolean same(Map<String, Object> staging, Row target) {
    CHECKED.incrementAndGet();
    for (int i = 0; i < NAMES.length; i++) {
      Object s = staging.get(NAMES[i]);
      Object t = target.getAs(NAMES[i]);
      if (!Objects.equals(number(s), number(t))) {
        return false;
      }
    }
    MATCHED.incrementAndGet();
    return true;
  }

  /** The staging row count from the observation. */
  static long rows(Map<String, Object> staging) {
    return ((Number) staging.get(NAMES[0])).longValue();
  }

  private static Long number(Object value) {
    return value == null ? null : ((Number) value).longValue();
  }
}
