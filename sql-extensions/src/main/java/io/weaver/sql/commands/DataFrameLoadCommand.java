package io.weaver.sql.commands;

import io.weaver.api.WeaverWorkspace;
import io.weaver.load.StagingProvider;
import io.weaver.load.records.LoadResult;
import io.weaver.sql.compat.WeaverLeafCommand;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.collection.immutable.Seq;

/**
 * An append to a Weaver table ({@code df.write.format("weaver").mode("append").save(id)}, {@code
 * df.writeTo(id).append()}, {@code INSERT INTO id …}) run as a Load of that Table with the written
 * rows as staging (docs/table-contract.md, "DataFrame API"): the engine of {@code LOAD WEAVER
 * TABLE}, through {@link WeaverWorkspace#loadWith}, so gates, signatures, audit columns, history
 * and the commit receipt are the same.
 *
 * <p>The command returns the load's result rows (docs/table-contract.md, "Load"), which {@code
 * spark.sql("INSERT …")} shows; DataFrame writers drop them, so every result is also logged (logger
 * {@code io.weaver.sql.commands.DataFrameLoadCommand}, INFO, WARN when not succeeded) and, as for
 * every load, recorded in {@code _.LoadHistory} ({@code SHOW WEAVER LOADS FOR id}). A load that
 * ends {@code failed}, {@code refused} or {@code skipped} throws {@link WeaverLoadException} with
 * its message, so the writing job fails; nothing was written then.
 */
public final class DataFrameLoadCommand extends WeaverLeafCommand {
  private static final Logger LOG = LoggerFactory.getLogger(DataFrameLoadCommand.class);

  private final String identity;
  private final LogicalPlan query;
  private final boolean waiveStabilityGates;
  private final List<String> positionalColumns;

  /**
   * @param positionalColumns for a by-position write ({@code INSERT INTO id VALUES …}), the
   *     business columns in table order that the query's columns are renamed to; empty when the
   *     write matches columns by name
   */
  public DataFrameLoadCommand(
      String identity,
      LogicalPlan query,
      boolean waiveStabilityGates,
      List<String> positionalColumns) {
    this(identity, query, waiveStabilityGates, positionalColumns, attributes(LoadRows.SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public DataFrameLoadCommand(
      String identity,
      LogicalPlan query,
      boolean waiveStabilityGates,
      List<String> positionalColumns,
      Seq<Attribute> output) {
    super(output);
    this.identity = Objects.requireNonNull(identity, "identity");
    this.query = Objects.requireNonNull(query, "query");
    this.waiveStabilityGates = waiveStabilityGates;
    this.positionalColumns = List.copyOf(positionalColumns);
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String what = "Load of " + identity + " from a DataFrame write";
    WeaverWorkspace weaver = WorkspaceAccess.open(session, what);
    Dataset<Row> written =
        org.apache.spark.sql.classic.Dataset.ofRows(
            (org.apache.spark.sql.classic.SparkSession) session, query);
    Dataset<Row> staging =
        !positionalColumns.isEmpty() && written.columns().length == positionalColumns.size()
            ? written.toDF(positionalColumns.toArray(new String[0]))
            : written;
    List<LoadResult> results =
        WorkspaceAccess.call(
            what,
            () ->
                weaver.loadWith(
                    identity,
                    waiveStabilityGates,
                    (table, context) ->
                        new StagingProvider.Staging(staging, Optional.empty(), Optional.empty())));
    for (LoadResult r : results) {
      String line =
          "Weaver load "
              + r.loadId()
              + " of "
              + r.tableId()
              + " (DataFrame write): "
              + r.status()
              + ", inserted "
              + r.rowsInserted()
              + ", updated "
              + r.rowsUpdated()
              + ", deleted "
              + r.rowsDeleted()
              + ", revived "
              + r.rowsRevived()
              + ", unchanged "
              + r.rowsUnchanged()
              + ", delta_version "
              + r.deltaVersion()
              + (r.message() == null ? "" : "; " + r.message());
      if (accepted(r)) {
        LOG.info(line);
      } else {
        LOG.warn(line);
      }
    }
    LoadResult last = results.get(results.size() - 1);
    if (!accepted(last)) {
      throw new WeaverLoadException(last);
    }
    return LoadRows.rows(results);
  }

  private static boolean accepted(LoadResult r) {
    return r.status().applied();
  }

  @Override
  public List<Object> fields() {
    return List.of(identity, query, waiveStabilityGates, positionalColumns, output());
  }
}
