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
 * Spark 4.0 (src/main/spark-4.1 holds the later lines', with the same signatures).
 */
public final class SparkLine {
  private SparkLine() {}

  /**
   * An {@link AnalysisException} of error class {@code errorClass} whose message is {@code message}
   * as given. Spark 4.0's exception takes no SQLSTATE or template and asks Spark's error reader,
   * which does not know Weaver's classes, so the SQLSTATE is given by a subclass; it has no field
   * for the template ({@code message} is already formatted).
   */
  public static AnalysisException analysisException(
      String message,
      String errorClass,
      scala.collection.immutable.Map<String, String> parameters,
      String sqlState,
      String messageTemplate) {
    return new WeaverAnalysisException(message, errorClass, parameters, sqlState);
  }

  /**
   * {@code dataset} with {@code metrics} observed by {@code observation} ({@link Dataset#observe}).
   * When a query over it ran but the optimizer had removed the observed node (a provably empty
   * input), Spark 4.0 never completes the observation ({@link Observation#get} waits forever; 4.1
   * completes it empty): {@link DroppedObservations} completes it with no metrics then, as 4.1
   * does.
   */
  public static <T> Dataset<T> observe(
      Dataset<T> dataset, Observation observation, Column metric, Column... metrics) {
    DroppedObservations.track(dataset.sparkSession(), observation);
    return dataset.observe(observation, metric, metrics);
  }

  /**
   * {@code read} over {@code table} of {@code catalog}: the same output attributes and options
   * (Spark 4.0's relation has no time travel field: time travel is resolved before it).
   */
  public static DataSourceV2Relation readOf(
      DataSourceV2Relation read, Table table, CatalogPlugin catalog, Identifier identifier) {
    return new DataSourceV2Relation(
        table, read.output(), Option.apply(catalog), Option.apply(identifier), read.options());
  }

  /** Spark 4.0's {@link AnalysisException} with Weaver's SQLSTATE. */
  private static final class WeaverAnalysisException extends AnalysisException {
    private final String sqlState;

    WeaverAnalysisException(
        String message,
        String errorClass,
        scala.collection.immutable.Map<String, String> parameters,
        String sqlState) {
      super(
          message,
          Option.empty(),
          Option.empty(),
          Option.empty(),
          Option.apply(errorClass),
          parameters,
          new QueryContext[0]);
      this.sqlState = sqlState;
    }

    @Override
    public String getSqlState() {
      return sqlState;
    }
  }
}
