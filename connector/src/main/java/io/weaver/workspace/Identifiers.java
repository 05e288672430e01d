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

  /**
   * A control character: below U+0020, U+007F to U+009F, or a Unicode line or paragraph separator.
   * Check refuses them in every identifier (rule {@code control-character}); generated SQL text
   * never shows them raw in a comment ({@link #visible}).
   */
  public static boolean isControl(int c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029;
  }

  /** Whether {@code text} holds a control character ({@link #isControl}). */
  public static boolean hasControl(String text) {
    return text != null && text.chars().anyMatch(Identifiers::isControl);
  }

  /**
   * {@code text} with every control character ({@link #isControl}) written as a visible escape:
   * {@code \n}, {@code \r}, {@code \t}, {@code \0}, else a backslash, {@code u} and four hex
   * digits. The result holds no line break, so it is safe on one line of a message or of a {@code
   * --} comment.
   */
  public static String visible(String text) {
    if (!hasControl(text)) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 8);
    text.chars()
        .forEach(
            c -> {
              switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 0 -> out.append("\\0");
                default -> {
                  if (isControl(c)) {
                    out.append(String.format("\\u%04X", c));
                  } else {
                    out.append((char) c);
                  }
                }
              }
            });
    return out.toString();
  }

  /** Quotes an identifier for Spark SQL text: backticks, inner backticks doubled. */
  public static String quote(String identifier) {
    return "`" + identifier.replace("`", "``") + "`";
  }
}
