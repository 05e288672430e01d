package io.weaver.load;

import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.json.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a load writes into its Delta commit's {@code userMetadata}, atomically with its data: the
 * load id, the sequence (also the idempotent txn version), the load timestamp and the new bookmark.
 * It is the receipt a later run uses to recover a load whose history was never written.
 */
record CommitReceipt(
    String loadId, long sequence, Instant loadTimestamp, Optional<String> bookmark) {
  private static final String KEY = "weaver_load";

  String toJson() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("load_id", loadId);
    body.put("sequence", sequence);
    body.put("load_timestamp", loadTimestamp.toString());
    body.put("bookmark", bookmark.orElse(null));
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
                  : Optional.of(bookmark.asText())));
    } catch (Exception e) {
      return Optional.empty();
    }
  }
}
