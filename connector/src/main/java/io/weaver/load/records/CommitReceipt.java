package io.weaver.load.records;

import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.json.Json;
import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.functions;

/**
 * What a load writes into its Delta commit's {@code userMetadata}, atomically with its data: the
 * load id, the sequence (also the idempotent txn version), the load timestamp, the new bookmark and
 * the load's counts by kind of change. It is the receipt a later run uses to recover a load whose
 * history was never written. The counts are added when the commit is made ({@link #stamped}), since
 * the receipt is drawn up before the diff; receipts written before they were added have none.
 */
public record CommitReceipt(
    String loadId,
    long sequence,
    Instant loadTimestamp,
    Optional<String> bookmark,
    Optional<ChangeCounts> counts,
    List<ExpectationCount> expectations) {
  private static final String KEY = "weaver_load";
  private static final String COUNTS = "counts";
  private static final String EXPECTATIONS = "expectations";

  public CommitReceipt {
    expectations = List.copyOf(expectations);
  }

  /** A receipt without counts: the one a load draws up before its diff. */
  public CommitReceipt(
      String loadId, long sequence, Instant loadTimestamp, Optional<String> bookmark) {
    this(loadId, sequence, loadTimestamp, bookmark, Optional.empty(), List.of());
  }

  /**
   * This receipt carrying {@code counts} (what the commit did, by kind of change) and the rows
   * violating each expectation.
   */
  public CommitReceipt withCounts(ChangeCounts counts, List<ExpectationCount> expectations) {
    return new CommitReceipt(
        loadId, sequence, loadTimestamp, bookmark, Optional.of(counts), expectations);
  }

  /**
   * The commit metadata {@code userMetadata} with {@code counts} added, when it is a Weaver
   * receipt; any other metadata unchanged.
   */
  public static String stamped(
      String userMetadata, ChangeCounts counts, List<ExpectationCount> expectations) {
    return parse(userMetadata)
        .map(r -> r.withCounts(counts, expectations).toJson())
        .orElse(userMetadata);
  }

  public String toJson() {
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
          kinds.put("deleted", c.deleted());
          kinds.put("revived", c.revived());
          kinds.put("unchanged", c.unchanged());
          kinds.put("rejected", c.rejected());
          kinds.put("live_before", c.liveBefore());
          kinds.put("quarantined", c.quarantined());
          kinds.put("stale", c.stale());
          body.put(COUNTS, kinds);
        });
    if (!expectations.isEmpty()) {
      body.put(EXPECTATIONS, expectations.stream().map(ExpectationCount::toMap).toList());
    }
    return Json.write(Map.of(KEY, body));
  }

  /**
   * The condition on a row of {@code DeltaTable.history()} that its commit carries a receipt: a
   * Weaver load's commit, which {@link #parse} reads. The one place history is searched for them.
   */
  public static Column carriesReceipt() {
    return functions.col("userMetadata").contains(KEY);
  }

  /** Parses a commit's userMetadata; empty when it is not a Weaver receipt. */
  public static Optional<CommitReceipt> parse(String userMetadata) {
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
              counts(body.get(COUNTS)),
              expectations(body.get(EXPECTATIONS))));
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /** The expectation counts of a receipt; none for a receipt written before it carried them. */
  private static List<ExpectationCount> expectations(JsonNode list) {
    List<ExpectationCount> counts = new ArrayList<>();
    if (list != null && list.isArray()) {
      for (JsonNode e : list) {
        List<String> samples = new ArrayList<>();
        e.path("sample_keys").forEach(k -> samples.add(k.asText()));
        counts.add(
            new ExpectationCount(
                e.path("expectation").asText(),
                e.path("action").asText(),
                e.path("rows_violating").asLong(),
                samples));
      }
    }
    return counts;
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
        ChangeCounts.builder()
            .inserted(kinds.get("inserted").asLong())
            .updated(kinds.get("updated").asLong())
            .deleted(kinds.get("deleted").asLong())
            .revived(kinds.get("revived").asLong())
            .unchanged(kinds.get("unchanged").asLong())
            .rejected(kinds.get("rejected").asLong())
            .liveBefore(kinds.get("live_before").asLong())
            // Receipts written before quarantine (or sequence columns) existed have none.
            .quarantined(kinds.path("quarantined").asLong(0))
            .stale(kinds.path("stale").asLong(0))
            .build());
  }
}
