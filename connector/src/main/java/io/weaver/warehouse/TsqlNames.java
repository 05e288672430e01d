package io.weaver.warehouse;

/**
 * How generated T-SQL spells names and text: every identifier in brackets (a {@code ]} doubled),
 * every text literal as Unicode ({@code N'…'}, a {@code '} doubled). Nothing a user authored is
 * ever placed in generated T-SQL any other way.
 */
public final class TsqlNames {
  private TsqlNames() {}

  /** {@code [name]}, with {@code ]} doubled: safe for any identifier, spaces included. */
  public static String quote(String identifier) {
    if (identifier == null || identifier.isEmpty()) {
      throw new IllegalArgumentException("a T-SQL identifier cannot be empty");
    }
    return "[" + identifier.replace("]", "]]") + "]";
  }

  /** {@code [schema].[object]}. */
  public static String qualified(String schema, String object) {
    return quote(schema) + "." + quote(object);
  }

  /** {@code N'text'}, with {@code '} doubled. */
  public static String literal(String text) {
    return "N'" + text.replace("'", "''") + "'";
  }
}
