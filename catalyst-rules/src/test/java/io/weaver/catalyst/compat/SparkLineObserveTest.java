package io.weaver.catalyst.compat;

import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weaver.catalyst.testing.LocalSpark;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * {@link SparkLine#observe} on every line: an observation whose node the optimizer removed (an
 * observed empty local relation, as a load that returns only delete keys stages) completes empty
 * once a query over it ran; Spark 4.0 alone never completed it (its get waited forever).
 */
class SparkLineObserveTest {
  private static final StructType SCHEMA = new StructType().add("id", DataTypes.LongType);

  @Test
  void anObservedEmptyRelationCompletesWithNoMetrics() throws Exception {
    SparkSession spark = LocalSpark.get();
    Observation observation = new Observation("weaver_test_" + UUID.randomUUID());
    Dataset<Row> empty = spark.createDataFrame(List.of(), SCHEMA);
    Dataset<Row> observed =
        SparkLine.observe(empty, observation, count(lit(1)).as("rows"), sum("id").as("ids"));
    // The join of an empty side is empty: the optimizer replaces it, and the observed node under
    // it, with an empty relation.
    Dataset<Row> joined = observed.join(spark.range(3).toDF(), "id");
    long rows = joined.unionByName(spark.range(3).toDF()).localCheckpoint(true).count();
    assertEquals(3, rows);
    assertEquals(Map.of(), read(observation));
  }

  @Test
  void anObservedRelationCompletesWithItsMetrics() throws Exception {
    SparkSession spark = LocalSpark.get();
    Observation observation = new Observation("weaver_test_" + UUID.randomUUID());
    Dataset<Row> observed =
        SparkLine.observe(
            spark.range(4).toDF(), observation, count(lit(1)).as("rows"), sum("id").as("ids"));
    observed.localCheckpoint(true);
    assertEquals(Map.of("rows", 4L, "ids", 6L), read(observation));
  }

  /** The observation's metrics, or a failure after a minute instead of waiting forever. */
  private static Map<String, Object> read(Observation observation) throws Exception {
    return CompletableFuture.supplyAsync(
            () -> {
              try {
                return observation.getAsJava();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
              }
            })
        .get(60, TimeUnit.SECONDS);
  }
}
