package io.weaver.workspace;

import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import java.util.Optional;

/** A Table ID, {@code Schema.Object}, unique within its item. */
public record TableId(String schema, String object) implements Comparable<TableId> {
  /**
   * The end of a history table's object name: {@code Schema.Object__History} holds the versions of
   * {@code Schema.Object} when it declares {@code History: true}. No declared Table's name ends so.
   */
  public static final String HISTORY_SUFFIX = "__History";

  public TableId {
    if (!Identifiers.isIdentifier(schema) || !Identifiers.isIdentifier(object)) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST, "not a Table ID: " + schema + "." + object);
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

  /** The ID of this Table's history table, {@code Schema.Object__History}. */
  public TableId history() {
    return new TableId(schema, object + HISTORY_SUFFIX);
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
