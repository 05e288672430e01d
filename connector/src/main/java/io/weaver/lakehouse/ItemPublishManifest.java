package io.weaver.lakehouse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.json.Json;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * One publish of an item (docs/table-contract.md, "Item publish"): for each Table of the item, the
 * Delta version readers by name see, and the load that produced it. It is stored twice by the one
 * commit that makes it: as rows of {@code _.ItemPublish} (for people and SQL) and as that commit's
 * {@code userMetadata} (for the item catalog, which reads it from the Delta log without a Spark
 * job: {@link PublishedVersions}).
 *
 * @param publishId unique, sortable by time
 * @param sequence 1 for the item's first publish, then one more each time; the publish commit's
 *     idempotent transaction version, so a retried publish commits once
 * @param kind {@code first} (before the item's first load commits: its Tables as Build left them),
 *     {@code load} (a load of the item), {@code publish} (PUBLISH WEAVER ITEM), {@code restore}
 *     (RESTORE WEAVER ITEM … TO PUBLISH) or {@code off} (the item no longer publishes together: no
 *     Table pinned, readers see latest versions again)
 * @param tables {@code Schema.Object} → its published version, sorted by name
 */
public record ItemPublishManifest(
    String publishId, long sequence, String kind, Instant publishedAt, Map<String, Entry> tables) {

  /** The catalogue table of publishes, {@code _.ItemPublish}. */
  public static final String TABLE = "ItemPublish";

  /** Marks a commit's {@code userMetadata} as a publish manifest (a format version, too). */
  private static final String MARKER = "weaverItemPublish";

  public static final String KIND_FIRST = "first";
  public static final String KIND_LOAD = "load";
  public static final String KIND_PUBLISH = "publish";
  public static final String KIND_RESTORE = "restore";
  public static final String KIND_OFF = "off";

  /**
   * @param version the Delta version readers by name see
   * @param loadId the load that produced that version; null when none is known (a Table built and
   *     never loaded)
   */
  public record Entry(long version, String loadId) {}

  public ItemPublishManifest {
    tables = java.util.Collections.unmodifiableMap(new TreeMap<>(tables));
  }

  /** The version readers by name see of {@code schemaObject}; empty when it is not pinned. */
  public OptionalLong version(String schemaObject) {
    Entry entry = tables.get(schemaObject);
    return entry == null ? OptionalLong.empty() : OptionalLong.of(entry.version());
  }

  /** Whether this publish pins the same version of the same Tables as {@code other}. */
  public boolean sameVersions(Map<String, Long> versions) {
    if (!tables.keySet().equals(versions.keySet())) {
      return false;
    }
    return tables.entrySet().stream()
        .allMatch(e -> e.getValue().version() == versions.get(e.getKey()));
  }

  /** The manifest as a commit's {@code userMetadata}. */
  public String toUserMetadata() {
    Map<String, Object> tableMap = new LinkedHashMap<>();
    tables.forEach(
        (name, entry) -> {
          Map<String, Object> e = new LinkedHashMap<>();
          e.put("version", entry.version());
          e.put("loadId", entry.loadId());
          tableMap.put(name, e);
        });
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(MARKER, 1);
    out.put("publishId", publishId);
    out.put("sequence", sequence);
    out.put("kind", kind);
    out.put("publishedAt", publishedAt.toString());
    out.put("tables", tableMap);
    return Json.write(out);
  }

  /**
   * The manifest a commit's {@code userMetadata} holds; empty when it holds none (another commit of
   * the table: its creation, a column added, an OPTIMIZE).
   */
  public static Optional<ItemPublishManifest> fromUserMetadata(String userMetadata) {
    if (userMetadata == null || !userMetadata.contains(MARKER)) {
      return Optional.empty();
    }
    JsonNode node;
    try {
      node = Json.read(userMetadata);
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
    if (!node.isObject() || !node.has(MARKER)) {
      return Optional.empty();
    }
    Map<String, Entry> tables = new TreeMap<>();
    JsonNode tableNode = node.path("tables");
    for (Iterator<Map.Entry<String, JsonNode>> it = tableNode.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode loadId = e.getValue().path("loadId");
      tables.put(
          e.getKey(),
          new Entry(
              e.getValue().path("version").asLong(), loadId.isTextual() ? loadId.asText() : null));
    }
    return Optional.of(
        new ItemPublishManifest(
            node.path("publishId").asText(),
            node.path("sequence").asLong(),
            node.path("kind").asText(),
            Instant.parse(node.path("publishedAt").asText()),
            tables));
  }
}
