package io.weaver.load.restore;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalogue.NamedRow;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.publish.ItemPublisher;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * {@code RESTORE WEAVER ITEM <Item> TO PUBLISH '<id>'} (docs/table-contract.md, "Item publish"):
 * each Table of the item whose version differs from the one that publish pinned is restored to the
 * load that produced it ({@link LoadRestore}: the Delta table, its history and {@code
 * _.LoadState}), then the item publishes the restored versions, so readers by name see that
 * publish's state again and the next load starts from it.
 */
public final class ItemRestore {
  /**
   * What happened to one Table.
   *
   * @param action {@code restored}, {@code unchanged} (already at that publish's version) or {@code
   *     not restored} (the publish names no load for it; the message says why)
   */
  public record Step(
      String tableId, String action, String toLoadId, long deltaVersion, String message) {}

  /** The steps, then the publish that made them visible. */
  public record Result(List<Step> steps, ItemPublisher.Outcome publish) {}

  private ItemRestore() {}

  /**
   * @throws IllegalArgumentException when the item has no publish {@code publishId}
   */
  public static Result restore(
      SparkSession spark,
      LakehouseLayout layout,
      WorkspaceModel model,
      ItemPublisher publisher,
      String item,
      String publishId,
      boolean together) {
    Catalogue catalogue = new Catalogue(spark, layout, item);
    Map<String, NamedRow> pinned = new HashMap<>();
    for (Row r :
        catalogue
            .read(CatalogueTable.ITEM_PUBLISH)
            .where(functions.col("publish_id").equalTo(publishId))
            .collectAsList()) {
      NamedRow row = NamedRow.of(r);
      if (row.string("table_id") != null) {
        pinned.put(row.string("table_id"), row);
      }
    }
    if (pinned.isEmpty()) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "Item "
              + item
              + " has no publish '"
              + publishId
              + "' that pins Tables; SHOW WEAVER PUBLISHES FOR "
              + item
              + " lists its publishes.");
    }
    List<Step> steps = new ArrayList<>();
    for (TableDeclaration t : model.tables()) {
      String id = t.tableId().toString();
      if (!t.item().equals(item) || t.target() != Target.LAKEHOUSE || !pinned.containsKey(id)) {
        continue;
      }
      NamedRow entry = pinned.get(id);
      long version = entry.longOr("delta_version", -1);
      String loadId = entry.string("load_id");
      long now =
          DeltaLogs.at(spark, layout.tablePath(item, t.tableId()))
              .map(DeltaLogs.TableLog::version)
              .orElse(-1L);
      if (now == version) {
        steps.add(new Step(t.qualifiedName(), "unchanged", loadId, now, "at version " + now));
      } else if (loadId == null) {
        steps.add(
            new Step(
                t.qualifiedName(),
                "not restored",
                null,
                now,
                "publish "
                    + publishId
                    + " names no load of "
                    + t.qualifiedName()
                    + " (it was built and not loaded then); restore it with RESTORE WEAVER"
                    + " TABLE … TO LOAD"));
      } else {
        LoadRestore.Result r = LoadRestore.restore(spark, layout, t, loadId);
        steps.add(new Step(t.qualifiedName(), "restored", loadId, r.deltaVersion(), r.message()));
      }
    }
    // An item that no longer publishes together is left unpinned: readers see the restored
    // versions as the latest.
    ItemPublisher.Outcome published =
        together
            ? publisher.publish(item, ItemPublishManifest.KIND_RESTORE)
            : publisher
                .unpin(item)
                .orElseGet(() -> new ItemPublisher.Outcome(item, publisher.latest(item), false));
    return new Result(steps, published);
  }
}
