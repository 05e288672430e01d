package io.weaver.load.publish;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.lakehouse.ItemPublishManifest;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.lakehouse.PublishedVersions;
import io.weaver.load.records.CommitReceipt;
import io.weaver.load.records.LoadBookkeeping;
import io.weaver.load.spec.LoadIds;
import io.weaver.load.write.CommitConflicts;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.TableId;
import io.weaver.workspace.Target;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Publishes an item (docs/table-contract.md, "Item publish"): one append commit to {@code
 * _.ItemPublish} that pins, for every Table of the item (and its history table), the Delta version
 * readers by name see. The commit is the publish — atomic by Delta, so a crash leaves the old or
 * the new publish, never a mix — and carries an idempotent transaction ({@code
 * weaver-publish:<Item>}, the publish's sequence), so a retried publish commits once. A publish
 * that would pin the versions already published writes nothing.
 */
public final class ItemPublisher {
  /** The idempotent transaction application id of an item's publishes. */
  public static final String APP_ID_PREFIX = "weaver-publish:";

  private static final int ATTEMPTS = 3;

  /**
   * What a publish did.
   *
   * @param manifest the item's latest publish afterwards (empty when it never published)
   * @param wrote whether this call committed a publish
   */
  public record Outcome(String item, Optional<ItemPublishManifest> manifest, boolean wrote) {
    /** One line for a person. */
    public String describe() {
      if (manifest.isEmpty()) {
        return "Item " + item + " has never published.";
      }
      ItemPublishManifest m = manifest.get();
      return (wrote ? "Published " : "Already published: ")
          + item
          + " as publish "
          + m.publishId()
          + (m.kind().equals(ItemPublishManifest.KIND_OFF)
              ? " (no Table pinned: readers see each load as it commits)"
              : " (" + m.tables().size() + " tables)");
    }
  }

  private final SparkSession spark;
  private final LakehouseLayout layout;
  private final WorkspaceModel model;
  private final PublishFaultPoints faults;

  public ItemPublisher(
      SparkSession spark, LakehouseLayout layout, WorkspaceModel model, PublishFaultPoints faults) {
    this.spark = spark;
    this.layout = layout;
    this.model = model;
    this.faults = faults;
  }

  /** The item's latest publish, read from the log of {@code _.ItemPublish} (no Spark job). */
  public Optional<ItemPublishManifest> latest(String item) {
    return PublishedVersions.latest(catalogue(item).path(CatalogueTable.ITEM_PUBLISH));
  }

  /**
   * Publishes every Table of {@code item} at its latest Delta version, unless those are the
   * versions already published.
   */
  public Outcome publish(String item, String kind) {
    for (int attempt = 1; ; attempt++) {
      Optional<ItemPublishManifest> before = latest(item);
      Map<String, Long> versions = versions(item);
      if (versions.isEmpty() && before.isEmpty()) {
        return new Outcome(item, before, false); // no built Lakehouse Table: nothing to pin
      }
      if (before.isPresent() && before.get().sameVersions(versions)) {
        return new Outcome(item, before, false);
      }
      try {
        return new Outcome(item, Optional.of(write(item, kind, versions, before)), true);
      } catch (RuntimeException e) {
        // Another call published the item between the read and the commit (it took the same
        // sequence, or Delta refused this commit as concurrent): read what it published and
        // decide again. Anything else is no race and surfaces as it is.
        if (!(e instanceof SequenceTaken || CommitConflicts.isConflict(e))) {
          throw e;
        }
        if (attempt >= ATTEMPTS) {
          throw new IllegalStateException(
              "Item "
                  + item
                  + ": the publish did not commit after "
                  + ATTEMPTS
                  + " attempts ("
                  + e.getMessage()
                  + "); readers by name still see its last publish. Run PUBLISH WEAVER ITEM "
                  + item
                  + " once the other loads of the item are done.",
              e);
        }
      }
    }
  }

  /**
   * For an item that no longer publishes together: when its latest publish still pins Tables, one
   * publish that pins none, after which readers see each load as it commits. Nothing otherwise.
   */
  public Optional<Outcome> unpin(String item) {
    Optional<ItemPublishManifest> before = latest(item);
    if (before.isEmpty() || before.get().tables().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Outcome(
            item, Optional.of(write(item, ItemPublishManifest.KIND_OFF, Map.of(), before)), true));
  }

  /**
   * The latest version of every Lakehouse Table of {@code item} that is built, and of its history
   * table, by {@code Schema.Object}.
   */
  Map<String, Long> versions(String item) {
    Map<String, Long> versions = new TreeMap<>();
    for (TableDeclaration t : model.tables()) {
      if (!t.item().equals(item) || t.target() != Target.LAKEHOUSE) {
        continue;
      }
      putVersion(versions, item, t.tableId());
      if (t.history()) {
        putVersion(versions, item, t.tableId().history());
      }
    }
    return versions;
  }

  private void putVersion(Map<String, Long> versions, String item, TableId id) {
    DeltaLogs.at(spark, layout.tablePath(item, id))
        .ifPresent(log -> versions.put(id.toString(), log.version()));
  }

  private ItemPublishManifest write(
      String item, String kind, Map<String, Long> versions, Optional<ItemPublishManifest> before) {
    Catalogue catalogue = catalogue(item);
    catalogue.ensureTable(CatalogueTable.ITEM_PUBLISH);
    String path = catalogue.path(CatalogueTable.ITEM_PUBLISH);
    String appId = APP_ID_PREFIX + item;
    long sequence = before.map(ItemPublishManifest::sequence).orElse(0L);
    // The log's own record of the last publish transaction wins where it can be read: a manifest
    // lost to log cleanup must not make a new publish reuse a sequence Delta would skip.
    OptionalLong committed =
        DeltaLogs.at(spark, path).map(log -> log.txnVersion(appId)).orElse(OptionalLong.empty());
    sequence = Math.max(sequence, committed.orElse(0L)) + 1;
    Map<String, LoadBookkeeping.State> states = new LoadBookkeeping(catalogue).states();
    Map<String, ItemPublishManifest.Entry> entries = new TreeMap<>();
    versions.forEach(
        (table, version) -> {
          LoadBookkeeping.State state = states.get(table);
          entries.put(
              table,
              new ItemPublishManifest.Entry(
                  version, state == null ? null : producedBy(item, table, version, state)));
        });
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    ItemPublishManifest manifest =
        new ItemPublishManifest(LoadIds.newLoadId(now), sequence, kind, now, entries);
    faults.beforePublish();
    catalogue.appendOnce(
        CatalogueTable.ITEM_PUBLISH, rows(manifest), appId, sequence, manifest.toUserMetadata());
    // Delta skips, without an error, a write whose transaction version its application already
    // committed: another publish of the item that took the same sequence first. Then this one
    // did not happen, and the caller decides again from what that one published.
    Optional<ItemPublishManifest> landed = PublishedVersions.latest(path);
    if (landed.isEmpty() || !landed.get().publishId().equals(manifest.publishId())) {
      throw new SequenceTaken(
          "another publish of " + item + " committed sequence " + sequence + " first");
    }
    faults.afterPublish();
    return manifest;
  }

  /**
   * The load that produced {@code version} of a loaded Table: the one whose receipt that commit
   * carries. The Table's last load is not it when that load changed nothing (it committed no
   * version) or was a rerun that found its commit recovered. A version no load committed (Build
   * changed the table, a restore) falls back to the Table's last load.
   */
  private String producedBy(String item, String table, long version, LoadBookkeeping.State state) {
    return DeltaLogs.userMetadataAt(
            spark, layout.tablePath(item, TableId.parse(table).orElseThrow()), version)
        .flatMap(CommitReceipt::parse)
        .map(CommitReceipt::loadId)
        .orElse(state.lastLoadId());
  }

  /** Another publish of the item committed this publish's sequence first; this one did not land. */
  private static final class SequenceTaken extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    SequenceTaken(String message) {
      super(message);
    }
  }

  private static List<Row> rows(ItemPublishManifest manifest) {
    Timestamp at = Timestamp.from(manifest.publishedAt());
    List<Row> rows = new ArrayList<>();
    if (manifest.tables().isEmpty()) {
      rows.add(row(manifest, at).build());
    }
    manifest
        .tables()
        .forEach(
            (table, entry) ->
                rows.add(
                    row(manifest, at)
                        .set("table_id", table)
                        .set("delta_version", entry.version())
                        .set("load_id", entry.loadId())
                        .build()));
    return rows;
  }

  private static io.weaver.catalogue.CatalogueRowBuilder row(
      ItemPublishManifest manifest, Timestamp at) {
    return CatalogueTable.ITEM_PUBLISH
        .row()
        .set("publish_id", manifest.publishId())
        .set("publish_sequence", manifest.sequence())
        .set("kind", manifest.kind())
        .set("published_at", at);
  }

  private Catalogue catalogue(String item) {
    return new Catalogue(spark, layout, item);
  }
}
