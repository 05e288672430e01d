package io.weaver.staging;

import io.weaver.metadata.SqlProgram;
import io.weaver.metadata.TableDeclaration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs a Spark SQL Table's program in an {@link ItemSession} of the Table's item (so {@code
 * Parcel.Current} is the item's table and {@code parquet.`Files/…`} reads its file area): setup
 * statements first, then the staging query and the optional delete-key query, with {@code
 * :load_timestamp} and {@code :last_load_timestamp} bound. The returned DataFrames are lazy;
 * nothing is executed here but the setup statements.
 */
public final class SqlStaging {
  /** Timestamp of "no earlier load" for {@code :last_load_timestamp}. */
  public static final Instant NO_EARLIER_LOAD = Instant.parse("1900-01-01T00:00:00Z");

  private static final Pattern PARAMETER =
      Pattern.compile(":(load_timestamp|last_load_timestamp)\\b");

  /**
   * Setup statements that only shape the session; Build runs just these (it executes no data work).
   */
  private static final Pattern SHAPE_ONLY_SETUP =
      Pattern.compile(
          "(?is)^\\s*(set\\b|use\\b|declare\\b|create\\s+(or\\s+replace\\s+)?(global\\s+)?temp(orary)?\\s+(view|function)\\b).*");

  private SqlStaging() {}

  /** The staging rows and delete keys of one run, and the session that owns them. */
  public record Staged(
      SparkSession session, Dataset<Row> staging, Optional<Dataset<Row>> deleteKeys) {}

  /** Runs the program for a Load: every setup statement, then the result queries. */
  public static Staged forLoad(
      SparkSession spark,
      TableDeclaration table,
      SqlProgram program,
      Instant loadTimestamp,
      Instant lastLoadTimestamp) {
    return run(spark, table, program, loadTimestamp, lastLoadTimestamp, false);
  }

  /** Prepares the staging query for shape inference: only session-shaping setup runs. */
  public static Staged forShape(SparkSession spark, TableDeclaration table, SqlProgram program) {
    Instant now = Instant.now();
    return run(spark, table, program, now, NO_EARLIER_LOAD, true);
  }

  private static Staged run(
      SparkSession spark,
      TableDeclaration table,
      SqlProgram program,
      Instant loadTimestamp,
      Instant lastLoadTimestamp,
      boolean shapeOnly) {
    ItemSession session = ItemSession.of(spark, table.item(), "Table " + table.qualifiedName());
    Map<String, Instant> args =
        Map.of("load_timestamp", loadTimestamp, "last_load_timestamp", lastLoadTimestamp);
    for (String statement : program.setup()) {
      if (!shapeOnly || SHAPE_ONLY_SETUP.matcher(statement).matches()) {
        sql(session, statement, args);
      }
    }
    Dataset<Row> staging = sql(session, program.stagingQuery(), args);
    Optional<Dataset<Row>> deleteKeys = program.deleteKeyQuery().map(q -> sql(session, q, args));
    return new Staged(session.session(), staging, deleteKeys);
  }

  private static Dataset<Row> sql(
      ItemSession session, String statement, Map<String, Instant> args) {
    if (PARAMETER.matcher(statement.toLowerCase(Locale.ROOT)).find()) {
      return session.sql(ParameterBinder.bind(statement, args));
    }
    return session.sql(statement);
  }
}
