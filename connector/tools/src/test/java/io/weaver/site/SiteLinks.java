package io.weaver.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a written page's links and ids, for tests that check every internal link resolves. */
final class SiteLinks {
  private static final Pattern HREF = Pattern.compile("\\shref=\"([^\"]*)\"");
  private static final Pattern ID = Pattern.compile("\\sid=\"([^\"]*)\"");

  private SiteLinks() {}

  static String read(Path page) {
    try {
      return Files.readString(page, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> hrefs(String html) {
    List<String> out = new ArrayList<>();
    Matcher m = HREF.matcher(html);
    while (m.find()) {
      out.add(m.group(1).replace("&amp;", "&"));
    }
    return out;
  }

  static boolean hasId(String html, String id) {
    Matcher m = ID.matcher(html);
    while (m.find()) {
      if (m.group(1).equals(id)) {
        return true;
      }
    }
    return false;
  }

  /** What is wrong with one link of {@code page}, or null when it resolves (file and fragment). */
  static String problem(Path root, Path page, String href) {
    if (href.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      return href + ": not internal (the site must work with no network)";
    }
    String path = href;
    String fragment = null;
    int hash = href.indexOf('#');
    if (hash >= 0) {
      path = href.substring(0, hash);
      fragment = href.substring(hash + 1);
    }
    Path target = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
    if (!target.startsWith(root)) {
      return href + ": leaves the site folder";
    }
    if (!Files.isRegularFile(target)) {
      return href + ": no file " + target;
    }
    if (fragment != null && !fragment.isEmpty() && !hasId(read(target), fragment)) {
      return href + ": no id " + fragment + " in " + target;
    }
    return null;
  }
}
