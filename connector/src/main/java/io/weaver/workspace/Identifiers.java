package io.weaver.workspace;

import java.util.regex.Pattern;

/**
 * The identifier rule (docs/table-contract.md, "Workspace layout"): a letter or {@code _}, then
 * letters, digits or {@code _}.
 */
public final class Identifiers {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** Longest identifier accepted; keeps generated paths and names within engine limits. */
  public static final int MAX_LENGTH = 128;

  private Identifiers() {}

  public static boolean isIdentifier(String text) {
    return text != null && text.length() <= MAX_LENGTH && IDENTIFIER.matcher(text).matches();
  }

  /** Quotes an identifier for Spark SQL text: backticks, inner backticks doubled. */
  public static String quote(String identifier) {
    return "`" + identifier.replace("`", "``") + "`";
  }
}
