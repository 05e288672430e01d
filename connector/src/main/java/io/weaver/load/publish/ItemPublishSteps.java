package io.weaver.load.publish;

import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.load.records.LoadResult;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Target;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a load call does about its items' publishes (docs/table-contract.md, "Item publish"): before
 * it, a first publish of an item that publishes together and never published; after it, the publish
 * of each such item loaded whole with no Table stopped, the warning {@code committed, not
 * published} on the others' committed loads, and the lifting of an old publish's pins from an item
 * that no longer publishes together.
 */
public final class ItemPublishSteps {
  private static final Logger LOG = LoggerFactory.getLogger(ItemPublishSteps.class);

  private final WorkspaceModel model;
  private final Predicate<String> publishesTogether;
  private final ItemPublisher publisher;
  private final Consumer<String> progress;

  public ItemPublishSteps(
      WorkspaceModel model,
      Predicate<String> publishesTogether,
      ItemPublisher publisher,
      Consumer<String> progress) {
    this.model = model;
    this.publishesTogether = publishesTogether;
    this.publisher = publisher;
    this.progress = progress;
  }

  /**
   * Of an item that does not publish together: lifts an old publish's pins. Its loads committed and
   * are seen either way once this succeeds; a failure is reported, not thrown, so the loads'
   * results are not lost (the next load tries again).
   */
  private void unpin(String item) {
    try {
      publisher.unpin(item).ifPresent(o -> progress.accept(o.describe()));
    } catch (RuntimeException e) {
      LOG.warn("Item {}: its old publish was not lifted", item, e);
      progress.accept(
          "Item "
              + item
              + ": its old publish still pins its Tables ("
              + e.getMessage()
              + "); PUBLISH WEAVER ITEM "
              + item
              + " lifts it");
    }
  }

  /** Before loading {@code tables}: the first publish of each of their items that needs one. */
  public void beforeLoad(List<TableDeclaration> tables) {
    tables.stream()
        .filter(t -> t.target() == Target.LAKEHOUSE)
        .map(TableDeclaration::item)
        .distinct()
        .forEach(this::publishBeforeFirstLoad);
  }

  /**
   * After a load of several Tables: each item that publishes together, all of whose Tables were in
   * the load and loaded, is published; one where a Table failed, was refused or skipped is not, and
   * its committed loads say so; a load of only some of an item's Tables waits for the item's next
   * publish (docs/table-contract.md, "Item publish").
   */
  public List<LoadResult> afterLoad(List<TableDeclaration> tables, List<LoadResult> results) {
    List<String> items =
        tables.stream()
            .filter(t -> t.target() == Target.LAKEHOUSE)
            .map(TableDeclaration::item)
            .distinct()
            .toList();
    List<LoadResult> out = results;
    for (String item : items) {
      if (!publishesTogether.test(item)) {
        unpin(item);
        continue;
      }
      boolean wholeItem =
          model.tables().stream()
              .filter(t -> t.item().equals(item) && t.target() == Target.LAKEHOUSE)
              .allMatch(tables::contains);
      if (!wholeItem) {
        // A load of some of the item's Tables (LOAD WEAVER TABLE, a DataFrame write) waits for the
        // item's next publish, as a load of one Table does.
        out = withWarning(out, item, waitsForPublish(item));
        continue;
      }
      Optional<LoadResult> stopped =
          out.stream().filter(r -> ofItem(r, item) && r.stopsDependants()).findFirst();
      if (stopped.isPresent()) {
        String why =
            "committed, not published: "
                + stopped.get().tableId()
                + " was "
                + stopped.get().status()
                + ", so readers by name still see the item's last publish; the next load of "
                + item
                + " in which every Table loads publishes this load with its own"
                + " (or RESTORE WEAVER ITEM "
                + item
                + " TO PUBLISH '<id>' goes back; SHOW WEAVER PUBLISHES FOR "
                + item
                + " lists them)";
        progress.accept(
            "Item "
                + item
                + " not published: "
                + stopped.get().tableId()
                + " was "
                + stopped.get().status());
        out = withWarning(out, item, why);
        continue;
      }
      progress.accept("publish " + item);
      try {
        progress.accept(publisher.publish(item, ItemPublishManifest.KIND_LOAD).describe());
      } catch (RuntimeException e) {
        LOG.warn("Item {} was not published", item, e);
        out =
            withWarning(
                out,
                item,
                "committed, not published: the publish of "
                    + item
                    + " failed ("
                    + e.getMessage()
                    + "); readers by name still see its last publish; PUBLISH WEAVER ITEM "
                    + item
                    + " publishes it");
      }
    }
    return out;
  }

  /**
   * Of an item that publishes together and has never published: a first publish of its Tables as
   * they are, before any load of it commits, so that even its first load is seen all at once.
   */
  private void publishBeforeFirstLoad(String item) {
    if (!publishesTogether.test(item)) {
      return;
    }
    // Never published, or published "off" since (the item published together before): pins
    // nothing yet, so readers would see this load's commits one by one.
    if (publisher.latest(item).map(m -> m.tables().isEmpty()).orElse(true)) {
      publisher.publish(item, ItemPublishManifest.KIND_FIRST);
    }
  }

  private static boolean ofItem(LoadResult r, String item) {
    return r.tableId().startsWith(item + ".");
  }

  /** A load whose commit changed the table (a load that changed nothing has nothing to show). */
  private static boolean committed(LoadResult r) {
    return r.status().applied() && r.counts().changed() > 0;
  }

  /** {@code results} with {@code warning} added to each of the item's loads that committed. */
  private static List<LoadResult> withWarning(
      List<LoadResult> results, String item, String warning) {
    return results.stream()
        .map(r -> ofItem(r, item) && committed(r) ? r.withWarning(warning) : r)
        .toList();
  }

  /**
   * After a load of one Table: of an item that publishes together, the load is committed and waits
   * for the item's next publish; of one that does not, an old publish is lifted.
   */
  public List<LoadResult> afterLoadOfOne(TableDeclaration t, List<LoadResult> results) {
    if (t.target() != Target.LAKEHOUSE) {
      return results;
    }
    if (!publishesTogether.test(t.item())) {
      unpin(t.item());
      return results;
    }
    return withWarning(results, t.item(), waitsForPublish(t.item()));
  }

  private static String waitsForPublish(String item) {
    return "committed, not published: "
        + item
        + " publishes together, so readers by name see this load with the item's next"
        + " publish (LOAD WEAVER ITEM "
        + item
        + ", or PUBLISH WEAVER ITEM "
        + item
        + ")";
  }
}
