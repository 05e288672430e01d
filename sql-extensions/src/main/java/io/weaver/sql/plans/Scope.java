package io.weaver.sql.plans;

import java.util.Optional;

/**
 * What a BUILD or TEST statement covers: the whole workspace, one item, or one Table. At most one
 * of {@link #item()} and {@link #table()} is present.
 */
public record Scope(Optional<String> item, Optional<TableIdentity> table) {

  public Scope {
    if (item.isPresent() && table.isPresent()) {
      throw new IllegalArgumentException("a scope is an item or a table, not both");
    }
  }

  public static Scope workspace() {
    return new Scope(Optional.empty(), Optional.empty());
  }

  public static Scope item(String item) {
    return new Scope(Optional.of(item), Optional.empty());
  }

  public static Scope table(TableIdentity table) {
    return new Scope(Optional.empty(), Optional.of(table));
  }

  @Override
  public String toString() {
    return item.map(i -> "ITEM " + TableIdentity.quoteIfNeeded(i))
        .or(() -> table.map(t -> "TABLE " + t))
        .orElse("WORKSPACE");
  }
}
