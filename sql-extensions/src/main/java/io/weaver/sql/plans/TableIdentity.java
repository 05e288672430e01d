package io.weaver.sql.plans;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A Table identity as written in a Weaver statement (docs/table-contract.md, "Vocabulary"): {@code
 * Schema.Object} or item-qualified {@code Item.Schema.Object}, each part already unquoted.
 */
public record TableIdentity(Optional<String> item, String schema, String object) {

  public TableIdentity {
    if (item.isPresent() && item.get().isEmpty() || schema.isEmpty() || object.isEmpty()) {
      throw new IllegalArgumentException("identity parts must not be empty");
    }
  }

  /** The identity of {@code parts}: two (Schema, Object) or three (Item, Schema, Object). */
  public static TableIdentity of(List<String> parts) {
    return switch (parts.size()) {
      case 2 -> new TableIdentity(Optional.empty(), parts.get(0), parts.get(1));
      case 3 -> new TableIdentity(Optional.of(parts.get(0)), parts.get(1), parts.get(2));
      default ->
          throw new IllegalArgumentException(
              "an identity is Schema.Object or Item.Schema.Object, not " + parts.size() + " parts");
    };
  }

  /** The parts in order, item first when present. */
  public List<String> parts() {
    return item.map(i -> List.of(i, schema, object)).orElseGet(() -> List.of(schema, object));
  }

  /** Dotted form; a part that is not a plain name is backquoted with backquotes doubled. */
  @Override
  public String toString() {
    return parts().stream().map(TableIdentity::quoteIfNeeded).collect(Collectors.joining("."));
  }

  static String quoteIfNeeded(String part) {
    return part.matches("[\\p{L}\\p{N}_]+") ? part : "`" + part.replace("`", "``") + "`";
  }
}
