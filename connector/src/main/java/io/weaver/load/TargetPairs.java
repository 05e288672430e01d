package io.weaver.load;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.xxhash64;

import io.weaver.metadata.ManagedColumns;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.util.sketch.BloomFilter;

/**
 * A Bloom filter of the (key, signature) pairs of the target's live rows, which lets the diff carry
 * a staging row's values only when its pair is certainly not among them (docs/performance.md, "One
 * staging read"). A staging row whose pair the filter may hold is usually unchanged and travels as
 * key and signature only; when the diff finds it changed after all (a false positive), its values
 * are fetched from staging as before ({@link ChangeSet#complete}), so the filter decides how much
 * the diff carries, never what it finds.
 */
final class TargetPairs implements AutoCloseable {
  /**
   * The filter's false-positive rate: the share of changed rows whose values a second staging read
   * must fetch. At 10 million target rows the filter takes 36 MB, broadcast once.
   */
  static final double FPP = 1e-6;

  /** Above this many target rows the filter would pass {@link #MAX_BYTES}; its rate is relaxed. */
  static final long MAX_BYTES = 64L << 20;

  /**
   * Set by tests only: every pair "may be" the target's, so every changing row is a false positive
   * and the fetch of the rows the diff left behind runs deterministically.
   */
  static volatile boolean everyPairMaybe = false;

  private final Broadcast<BloomFilter> filter;
  private final LoadSpec spec;

  private TargetPairs(LoadSpec spec, Broadcast<BloomFilter> filter) {
    this.spec = spec;
    this.filter = filter;
  }

  /**
   * The filter of {@code target}'s live pairs, or empty when a key column's type could hash unlike
   * the join equates it ({@link ChangeSet#hashesLikeItJoins}): then the diff carries no values.
   */
  static Optional<TargetPairs> build(SparkSession spark, LoadSpec spec, Dataset<Row> target) {
    for (String key : spec.primaryKey()) {
      if (!ChangeSet.hashesLikeItJoins(spec.businessSchema().apply(key).dataType())) {
        return Optional.empty();
      }
    }
    Dataset<Row> live =
        target.filter(col(ManagedColumns.DELETE_TIME).equalTo(ManagedValues.liveSentinel()));
    // Delta answers the count from its file statistics without reading the data.
    long rows = Math.max(1, target.count());
    double fpp = FPP;
    while (BloomFilter.optimalNumOfBits(rows, fpp) / 8 > MAX_BYTES && fpp < 0.1) {
      fpp *= 10;
    }
    BloomFilter pairs =
        filterOf(live.select(pair(spec, live, live.col(ManagedColumns.SIGNATURE))), rows, fpp);
    Broadcast<BloomFilter> shared = new JavaSparkContext(spark.sparkContext()).broadcast(pairs);
    return Optional.of(new TargetPairs(spec, shared));
  }

  /**
   * The Bloom filter of {@code hashes} (one long column): one filter per partition, merged on the
   * way to the driver. Unlike {@code stat().bloomFilter}, an empty target gives an empty filter
   * rather than no answer, and no filter-sized zero value travels with each task.
   */
  private static BloomFilter filterOf(Dataset<Row> hashes, long rows, double fpp) {
    JavaRDD<Long> values = hashes.as(Encoders.LONG()).javaRDD();
    if (values.getNumPartitions() == 0) {
      return BloomFilter.create(rows, fpp);
    }
    return values
        .mapPartitions(
            (FlatMapFunction<Iterator<Long>, BloomFilter>)
                part -> {
                  BloomFilter filter = BloomFilter.create(rows, fpp);
                  while (part.hasNext()) {
                    filter.putLong(part.next());
                  }
                  return List.of(filter).iterator();
                })
        .treeReduce((a, b) -> a.mergeInPlace(b));
  }

  /**
   * True when the pair of a staging row ({@code typed}'s key, {@code signature}) may be a live
   * target row's; false when it is certainly not (the row changes or is new).
   */
  Column mayHold(Dataset<Row> typed, Column signature) {
    if (everyPairMaybe) {
      return lit(true);
    }
    Broadcast<BloomFilter> shared = filter;
    UserDefinedFunction test =
        udf(
                (UDF1<Long, Boolean>) hash -> shared.value().mightContainLong(hash),
                DataTypes.BooleanType)
            .asNonNullable();
    return test.apply(pair(spec, typed, signature));
  }

  /** One hash of the key (as its declared type on both sides) and the signature. */
  private static Column pair(LoadSpec spec, Dataset<Row> rows, Column signature) {
    List<Column> parts = new ArrayList<>();
    for (String key : spec.primaryKey()) {
      DataType type = spec.businessSchema().apply(key).dataType();
      parts.add(rows.col(ManagedValues.quote(key)).cast(type));
    }
    parts.add(signature.cast(DataTypes.StringType));
    return xxhash64(parts.toArray(new Column[0]));
  }

  /** Frees the broadcast filter on the executors and the driver. */
  @Override
  public void close() {
    filter.destroy();
  }
}
