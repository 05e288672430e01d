package io.weaver.warehouse;

import io.weaver.workspace.Identifiers;

/**
 * How generated T-SQL spells names and text: every identifier in brackets (a {@code ]} doubled),
 * every text literal as Unicode ({@code N'…'}, a {@code '} doubled), every text in a comment
 * escaped ({@link #comment}). Nothing a user authored is ever placed in generated T-SQL any other
 * way.
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

  /**
   * Text for a generated comment, {@code --} or block: control characters as visible escapes
   * ({@link Identifiers#visible}, so no line break ends a {@code --} comment early) and {@code
   * *}{@code /} and {@code /}{@code *} split by a space (so nothing closes or nests a block
   * comment). Every name or other text that is not Weaver's own goes into a comment only through
   * this.
   */
  public static String comment(String text) {
    return Identifiers.visible(text).replace("*/", "* /").replace("/*", "/ *");
  }

  /** {@code N'text'}, with {@code '} doubled. */
  public static String literal(String text) {
    return "N'" + text.replace("'", "''") + "'";
  }
}
