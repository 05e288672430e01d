package io.weaver.site;

/**
 * HTML escaping. Every value a page shows — names, descriptions, notes, messages, numbers — goes
 * through {@link #text} (element content and attribute values alike), so authored text can never
 * become markup.
 */
final class Html {
  private Html() {}

  /** {@code value} with {@code & < > " '} escaped; null becomes the empty string. */
  static String text(Object value) {
    if (value == null) {
      return "";
    }
    String s = value.toString();
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          // Control characters other than tab and newline are not allowed in HTML text.
          if (c < 0x20 && c != '\n' && c != '\t') {
            out.append('\uFFFD');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  /** A link to {@code href} (a relative page path this site made) showing {@code label}. */
  static String link(String href, Object label) {
    return "<a href=\"" + text(href) + "\">" + text(label) + "</a>";
  }

  /** A number with thousands separators, for counts. */
  static String count(long n) {
    return String.format(java.util.Locale.ROOT, "%,d", n);
  }
}
