package io.weaver.site;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The file name of each Table's page, from its item-qualified name: letters, digits, {@code _},
 * {@code .} and {@code -} are kept and every other character becomes {@code ~HH} (its UTF-8 bytes
 * in hex), so a name can hold no path separator and no {@code ..} segment. Names that differ only
 * in case (Weaver names are case-sensitive, some filesystems are not) get a {@code ~n} suffix.
 */
final class PageNames {
  /** The folder of the Table pages, below the site's root. */
  static final String TABLES = "tables";

  private final Map<String, String> byName = new HashMap<>();
  private final Map<String, Integer> taken = new HashMap<>();

  /** The page of a Table, relative to the site root ({@code tables/Item.Schema.Object.html}). */
  String page(String qualifiedName) {
    return byName.computeIfAbsent(qualifiedName, this::assign);
  }

  private String assign(String qualifiedName) {
    String stem = safe(qualifiedName);
    String folded = stem.toLowerCase(Locale.ROOT);
    int seen = taken.merge(folded, 1, Integer::sum);
    return TABLES + "/" + (seen == 1 ? stem : stem + "~" + seen) + ".html";
  }

  static String safe(String name) {
    StringBuilder out = new StringBuilder();
    for (byte b : name.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      boolean plain =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-'
              || (c == '.' && out.length() > 0);
      if (plain) {
        out.append(c);
      } else {
        out.append('~').append(String.format(Locale.ROOT, "%02X", b & 0xff));
      }
    }
    String s = out.toString().replace("..", ".~2E");
    return s.isEmpty() ? "~" : s;
  }

  /**
   * The file of a relative page path under {@code root}.
   *
   * @throws IllegalStateException when the path would leave {@code root} (never for names made
   *     here)
   */
  static Path resolve(Path root, String relative) {
    Path file = root.resolve(relative).normalize();
    if (!file.startsWith(root.normalize())) {
      throw new IllegalStateException("page " + relative + " would leave the site folder " + root);
    }
    return file;
  }

  /** {@code target} as seen from a page in folder {@code fromFolder} ("" for the root). */
  static String relative(String fromFolder, String target) {
    return fromFolder.isEmpty() ? target : "../" + target;
  }
}
