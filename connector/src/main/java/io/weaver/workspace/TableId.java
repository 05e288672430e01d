package io.weaver.workspace;

import java.util.Optional;

/** A Table ID, {@code Schema.Object}, unique within its item. */
public record TableId(String schema, String object) implements Comparable<TableId> {

  public TableId {
    if (!Identifiers.isIdentifier(schema) || !Identifiers.isIdentifier(object)) {
      throw new IllegalArgumentException("not a Table ID: " + schema + "." + object);
    }
  }

  /** Parses {@code Schema.Object}; empty when the text is not exactly two identifiers. */
  public static Optional<TableId> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    String[] parts = text.split("\\.", -1);
    if (parts.length != 2
        || !Identifiers.isIdentifier(parts[0])
        || !Identifiers.isIdentifier(parts[1])) {
      return Optional.empty();
    }
    return Optional.of(new TableId(parts[0], parts[1]));
  }

  /** The Python file stem and class name, {@code Schema__Object}. */
  public String pythonName() {
    return schema + "__" + object;
  }

  @Override
  public String toString() {
    return schema + "." + object;
  }

  @Override
  public int compareTo(TableId other) {
    return toString().compareTo(other.toString());
  }
}
