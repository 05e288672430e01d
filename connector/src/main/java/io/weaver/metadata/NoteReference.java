package io.weaver.metadata;

import io.weaver.workspace.Identifiers;
import io.weaver.workspace.TableId;
import java.util.Optional;

/**
 * A metadata reference in Column notes: {@code $Schema.Object.column} or {@code
 * $Item.Schema.Object.column}, meaning "the note of that column".
 */
public record NoteReference(Optional<String> item, TableId tableId, String column) {

  /** Parses a reference; empty when the text is not exactly one well-formed reference. */
  public static Optional<NoteReference> parse(String text) {
    if (text == null || !text.startsWith("$")) {
      return Optional.empty();
    }
    String[] parts = text.substring(1).split("\\.", -1);
    if (parts.length < 3 || parts.length > 4 || parts[parts.length - 1].isBlank()) {
      return Optional.empty();
    }
    for (String part : parts) {
      if (part.isEmpty() || !part.equals(part.strip())) {
        return Optional.empty();
      }
    }
    Optional<String> item = parts.length == 4 ? Optional.of(parts[0]) : Optional.empty();
    if (item.isPresent() && !Identifiers.isIdentifier(item.get())) {
      return Optional.empty();
    }
    int s = parts.length - 3;
    return TableId.parse(parts[s] + "." + parts[s + 1])
        .map(id -> new NoteReference(item, id, parts[s + 2]));
  }

  @Override
  public String toString() {
    return "$" + item.map(i -> i + ".").orElse("") + tableId + "." + column;
  }
}
