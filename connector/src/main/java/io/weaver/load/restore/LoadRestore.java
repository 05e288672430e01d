package io.weaver.load.restore;

import io.delta.tables.DeltaTable;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalogue.NamedRow;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.install.HistoryTable;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.history.TableHistory;
import io.weaver.load.records.CommitReceipt;
import io.weaver.load.records.LoadBookkeeping;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadIds;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.TableDeclaration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Restores a Table to the state an earlier load left it in (docs/table-contract.md, "Guarantees"):
 * the Delta table to the version that load produced, and {@code _.LoadState} to that load (last
 * load id and load timestamp, bookmark from its commit receipt), so that the next load behaves as
 * if the loads restored over never happened.
 *
 * <p>The load sequence is kept, not rolled back: Delta remembers the idempotent transaction
 * versions of the restored-over loads, so the next load must use a higher one.
 */
public final class LoadRestore {
  /**
   * What a restore did.
   *
   * @param tableId item-qualified
   * @param restoreId the id of the {@code restored} history row
   * @param toLoadId the load restored to
   * @param toVersion the Delta version that load produced
   * @param deltaVersion the table's version after the restore (the watermark)
   */
  public record Result(
      String tableId,
      String restoreId,
      String toLoadId,
      long toVersion,
      long deltaVersion,
      Optional<String> bookmark,
      String message) {}

  private LoadRestore() {}

  /**
   * @throws IllegalArgumentException when the Table is not built or has no such restorable load
   */
  public static Result restore(
      SparkSession spark, LakehouseLayout layout, TableDeclaration table, String loadId) {
    String name = table.qualifiedName();
    String path = layout.tablePath(table.item(), table.tableId());
    if (!DeltaTable.isDeltaTable(spark, path)) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_TABLE_NOT_BUILT,
          name + " is not built (no Delta table at " + path + "); run BUILD WEAVER first.",
          ErrorFacts.of(ErrorParameter.TABLE, name));
    }
    Catalogue catalogue = new Catalogue(spark, layout, table.item());
    String id = table.tableId().toString();
    List<Row> loads =
        catalogue
            .readFor(CatalogueTable.LOAD_HISTORY, "table_id", id)
            .where(functions.col("load_id").equalTo(loadId))
            .select("status", "delta_version", "load_timestamp")
            .collectAsList();
    if (loads.isEmpty()) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          name
              + " has no load '"
              + loadId
              + "' in _.LoadHistory; SHOW WEAVER LOADS FOR "
              + name
              + " lists its loads.");
    }
    NamedRow load =
        loads.stream()
            .map(NamedRow::of)
            .filter(r -> restorable(r.string("status")))
            .findFirst()
            .orElseThrow(
                () ->
                    new WeaverArgumentException(
                        WeaverErrorClass.WEAVER_INVALID_REQUEST,
                        "Load '"
                            + loadId
                            + "' of "
                            + name
                            + " has status "
                            + NamedRow.of(loads.get(0)).string("status")
                            + "; only a succeeded or recovered load can be restored to."));
    if (load.longOr("delta_version", -1) < 0 || load.isNull("load_timestamp")) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "Load '" + loadId + "' of " + name + " has no Delta version to restore to.");
    }
    long toVersion = load.longValue("delta_version");
    Instant loadTimestamp = load.instant("load_timestamp").orElseThrow();
    Optional<String> bookmark = bookmarkAt(spark, path, loadId, toVersion);

    // A Table with history: its history goes back to the same load (decided before anything is
    // restored, so a history that cannot follow refuses the whole restore).
    String historyPath = HistoryTable.path(layout, table);
    Optional<Long> historyVersion =
        table.history() && DeltaLogs.schema(spark, historyPath).isPresent()
            ? Optional.of(
                TableHistory.versionAt(spark, historyPath, loadTimestamp)
                    .orElseThrow(
                        () ->
                            new WeaverArgumentException(
                                WeaverErrorClass.WEAVER_INVALID_REQUEST,
                                name
                                    + "'s history began after load '"
                                    + loadId
                                    + "', so its history cannot go back to it; restore to a later"
                                    + " load. Nothing was restored.")))
            : Optional.empty();

    Instant started = Instant.now();
    DeltaTable delta = DeltaTable.forPath(spark, path);
    long current = latestVersion(delta);
    long after = current;
    if (current != toVersion) {
      delta.restoreToVersion(toVersion);
      after = latestVersion(delta);
    }
    // Rerunning the same restore completes a history a stop left behind (the Table is then
    // already at its version).
    historyVersion.ifPresent(
        v -> {
          DeltaTable history = DeltaTable.forPath(spark, historyPath);
          if (latestVersion(history) != v) {
            history.restoreToVersion(v);
          }
        });
    LoadBookkeeping books = new LoadBookkeeping(catalogue);
    LoadBookkeeping.State state = books.state(id);
    books.state(
        id,
        new LoadBookkeeping.State(
            loadId, Optional.of(loadTimestamp), after, bookmark, state.sequence()));
    String message =
        current == toVersion
            ? "already at Delta version " + toVersion + " of load " + loadId + "; load state reset"
            : "restored to load "
                + loadId
                + " (Delta version "
                + toVersion
                + ") as version "
                + after
                + "; load state and bookmark rolled back";
    String restoreId = LoadIds.newLoadId(started);
    LoadResult row =
        LoadResult.without(
            restoreId, name, LoadStatus.RESTORED, after, message, started, loadTimestamp);
    books.history(id, row, Instant.now());
    return new Result(name, restoreId, loadId, toVersion, after, bookmark, message);
  }

  private static boolean restorable(String status) {
    return status.equals(LoadStatus.SUCCEEDED.text()) || status.equals(LoadStatus.RECOVERED.text());
  }

  /**
   * The bookmark committed with the load: its own receipt, else (a load that wrote no data) the
   * newest receipt at or before its version.
   */
  static Optional<String> bookmarkAt(SparkSession spark, String path, String loadId, long version) {
    List<Row> commits =
        DeltaTable.forPath(spark, path)
            .history()
            .where(CommitReceipt.carriesReceipt().and(functions.col("version").leq(version)))
            .select("version", "userMetadata")
            .orderBy(functions.col("version").desc())
            .collectAsList();
    Optional<CommitReceipt> newest = Optional.empty();
    for (Row commit : commits) {
      Optional<CommitReceipt> receipt =
          CommitReceipt.parse(NamedRow.of(commit).string("userMetadata"));
      if (receipt.isEmpty()) {
        continue;
      }
      if (receipt.get().loadId().equals(loadId)) {
        return receipt.get().bookmark();
      }
      if (newest.isEmpty()) {
        newest = receipt;
      }
    }
    return newest.flatMap(CommitReceipt::bookmark);
  }

  private static long latestVersion(DeltaTable delta) {
    return NamedRow.of(delta.history(1).first()).longValue("version");
  }
}
