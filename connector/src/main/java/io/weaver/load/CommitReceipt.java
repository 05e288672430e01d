package io.weaver.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.json.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a load writes into its Delta commit's {@code userMetadata}, atomically with its data: the
 * load id, the sequence (also the idempotent txn version), the load timestamp, the new bookmark and
 * the load's counts by kind of change. It is the receipt a later run uses to recover a load whose
 * history was never written. The counts are added when the commit is made ({@link #stamped}), since
 * the receipt is drawn up before the diff; receipts written before they were added have none.
 */
record CommitReceipt(
    String loadId,
    long sequence,
    Instant loadTimestamp,
    Optional<String> bookmark,
    Optional<ChangeCounts> counts) {
  private static final String KEY = "weaver_load";
  private static final String COUNTS = "counts";

  /** A receipt without counts: the one a load draws up before its diff. */
  CommitReceipt(String loadId, long sequence, Instant loadTimestamp, Optional<String> bookmark) {
    this(loadId, sequence, loadTimestamp, bookmark, Optional.empty());
  }

  /** This receipt carrying {@code counts}: what the commit did, by kind of change. */
  CommitReceipt withCounts(ChangeCounts counts) {
    return new CommitReceipt(loadId, sequence, loadTimestamp, bookmark, Optional.of(counts));
  }

  /**
   * The commit metadata {@code userMetadata} with {@code counts} added, when it is a Weaver
   * receipt; any other metadata unchanged.
   */
  static String stamped(String userMetadata, ChangeCounts counts) {
    return parse(userMetadata).map(r -> r.withCounts(counts).toJson()).orElse(userMetadata);
  }

  String toJson() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("load_id", loadId);
    body.put("sequence", sequence);
    body.put("load_timestamp", loadTimestamp.toString());
    body.put("bookmark", bookmark.orElse(null));
    counts.ifPresent(
        c -> {
          Map<String, Object> kinds = new LinkedHashMap<>();
          kinds.put("inserted", c.inserted());
          kinds.put("updated", c.updated());
          kinds.put("revived", c.revived());
          kinds.put("deleted", c.deleted());
          kinds.put("unchanged", c.unchanged());
          kinds.put("rejected", c.rejected());
          kinds.put("live_before", c.liveBefore());
          kinds.put("quarantined", c.quarantined());
          body.put(COUNTS, kinds);
        });
    return Json.write(Map.of(KEY, body));
  }

  /** Parses a commit's userMetadata; empty when it is not a Weaver receipt. */
  static Optional<CommitReceipt> parse(String userMetadata) {
    if (userMetadata == null || !userMetadata.contains(KEY)) {
      return Optional.empty();
    }
    try {
      JsonNode body = Json.read(userMetadata).get(KEY);
      if (body == null) {
        return Optional.empty();
      }
      JsonNode bookmark = body.get("bookmark");
      return Optional.of(
          new CommitReceipt(
              body.get("load_id").asText(),
              body.get("sequence").asLong(),
              Instant.parse(body.get("load_timestamp").asText()),
              bookmark == null || bookmark.isNull()
                  ? Optional.empty()
                  : Optional.of(bookmark.asText()),
              counts(body.get(COUNTS))));
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /** The counts of a receipt; empty for a receipt written before receipts carried them. */
  private static Optional<ChangeCounts> counts(JsonNode kinds) {
    if (kinds == null || !kinds.isObject()) {
      return Optional.empty();
    }
    for (String name :
        new String[] {
          "inserted", "updated", "revived", "deleted", "unchanged", "rejected", "live_before"
        }) {
      if (!kinds.path(name).canConvertToLong()) {
        return Optional.empty();
      }
    }
    return Optional.of(
        new ChangeCounts(
            kinds.get("inserted").asLong(),
            kinds.get("updated").asLong(),
            kinds.get("revived").asLong(),
            kinds.get("deleted").asLong(),
            kinds.get("unchanged").asLong(),
            kinds.get("rejected").asLong(),
            kinds.get("live_before").asLong(),
            // Receipts written before quarantine existed have none.
            kinds.path("quarantined").asLong(0)));
  }
}
