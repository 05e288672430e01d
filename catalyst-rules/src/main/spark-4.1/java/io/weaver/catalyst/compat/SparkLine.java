package io.weaver.catalyst.compat;

import org.apache.spark.QueryContext;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Observation;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.Option;

/**
 * What differs between Spark lines in the Spark API Weaver's Catalyst code uses; this copy is for
 * Spark 4.1 and later (src/main/spark-4.0 holds Spark 4.0's, with the same signatures).
 */
public final class SparkLine {
  private SparkLine() {}

  /**
   * An {@link AnalysisException} of error class {@code errorClass} whose message is {@code message}
   * as given, with its SQLSTATE and message template named explicitly (Spark's own error reader
   * does not know Weaver's classes).
   */
  public static AnalysisException analysisException(
      String message,
      String errorClass,
      scala.collection.immutable.Map<String, String> parameters,
      String sqlState,
      String messageTemplate) {
    return new AnalysisException(
        message,
        Option.empty(),
        Option.empty(),
        Option.empty(),
        Option.apply(errorClass),
        parameters,
        new QueryContext[0],
        Option.apply(sqlState),
        Option.apply(messageTemplate));
  }

  /**
   * {@code dataset} with {@code metrics} observed by {@code observation} ({@link Dataset#observe}).
   * When a query over it ran but the optimizer had removed the observed node (a provably empty
   * input), Spark 4.1 completes the observation with no metrics: {@link Observation#get} returns an
   * empty map instead of waiting.
   */
  public static <T> Dataset<T> observe(
      Dataset<T> dataset, Observation observation, Column metric, Column... metrics) {
    return dataset.observe(observation, metric, metrics);
  }

  /**
   * {@code read} over {@code table} of {@code catalog}: the same output attributes, options and
   * time travel (a Spark 4.1 field of the relation).
   */
  public static DataSourceV2Relation readOf(
      DataSourceV2Relation read, Table table, CatalogPlugin catalog, Identifier identifier) {
    return new DataSourceV2Relation(
        table,
        read.output(),
        Option.apply(catalog),
        Option.apply(identifier),
        read.options(),
        read.timeTravelSpec());
  }
}
