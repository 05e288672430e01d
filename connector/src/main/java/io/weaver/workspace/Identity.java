package io.weaver.workspace;

import java.util.Optional;

/**
 * How one object names another (docs/table-contract.md, "Vocabulary"): {@code Schema.Object} (same
 * item), {@code Files/Schema.Object} (a file-based object of the same item, never loaded by Weaver)
 * or {@code Item.Schema.Object}.
 *
 * @param item the item when qualified
 * @param tableId the Table ID
 * @param files true for a {@code Files/} identity
 */
public record Identity(Optional<String> item, TableId tableId, boolean files) {

  /** What starts a {@code Files/Schema.Object} identity. */
  public static final String FILES_PREFIX = "Files/";

  /** Parses an identity as authored; empty when it has none of the three forms. */
  public static Optional<Identity> parse(String text) {
    if (text == null || text.contains("$")) {
      return Optional.empty();
    }
    String trimmed = text.strip();
    if (trimmed.startsWith(FILES_PREFIX)) {
      return TableId.parse(trimmed.substring(FILES_PREFIX.length()))
          .map(id -> new Identity(Optional.empty(), id, true));
    }
    String[] parts = trimmed.split("\\.", -1);
    if (parts.length == 3 && Identifiers.isIdentifier(parts[0])) {
      return TableId.parse(parts[1] + "." + parts[2])
          .map(id -> new Identity(Optional.of(parts[0]), id, false));
    }
    return TableId.parse(trimmed).map(id -> new Identity(Optional.empty(), id, false));
  }

  /** The item this identity points into, given the item it was written in. */
  public String itemOr(String currentItem) {
    return item.orElse(currentItem);
  }

  @Override
  public String toString() {
    return (files ? FILES_PREFIX : item.map(i -> i + ".").orElse("")) + tableId;
  }
}
