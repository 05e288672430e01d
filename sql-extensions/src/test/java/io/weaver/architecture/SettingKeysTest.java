package io.weaver.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Weaver's settings are named and read in one place: {@code session.WeaverConf}, and for the keys
 * catalyst-rules reads itself (it cannot see the connector) {@code catalyst.CatalystSettings}. A
 * scan of the three jars' main sources finds any other string literal that looks like a Weaver
 * setting key ({@code "spark.weaver.…"}, {@code "weaver.…"}).
 */
class SettingKeysTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** The files that may spell a setting key. */
  private static final Set<String> CONF_CLASSES =
      Set.of(
          "connector/src/main/java/io/weaver/session/WeaverConf.java",
          "catalyst-rules/src/main/java/io/weaver/catalyst/CatalystSettings.java");

  /** Literals that look like keys and are not settings, with what they are. */
  private static final Map<String, String> NOT_SETTINGS =
      Map.of(
          "weaver.yaml", "the workspace file's name",
          "weaver.lock", "the embedded metastore's lock file",
          "weaver.nameRead:", "a plan mark's text (catalyst.rules.NameRead)",
          "weaver.allRows", "a plan mark's text (catalyst.rules.LiveMarks)");

  private static final Pattern KEY_LITERAL =
      Pattern.compile("\"((?:spark\\.)?weaver\\.[A-Za-z][^\"]*)\"");

  @Test
  void settingKeysAreSpelledOnlyInTheConfClasses() {
    Set<String> found = new TreeSet<>();
    int scanned = 0;
    for (String module : List.of("catalyst-rules", "connector", "sql-extensions")) {
      for (Path file : javaFiles(ROOT.resolve(module).resolve("src/main/java"))) {
        scanned++;
        String relative = ROOT.relativize(file).toString().replace('\\', '/');
        if (CONF_CLASSES.contains(relative)) {
          continue;
        }
        Matcher m = KEY_LITERAL.matcher(code(file));
        while (m.find()) {
          if (!NOT_SETTINGS.containsKey(m.group(1))) {
            found.add(relative + ": \"" + m.group(1) + "\"");
          }
        }
      }
    }
    assertTrue(scanned > 200, "the three modules' sources are scanned: " + scanned);
    assertEquals(
        Set.of(),
        found,
        "a Weaver setting named outside session.WeaverConf (or catalyst.CatalystSettings):"
            + " add the key there and read it through it");
  }

  /** The file's code without its comments (a key in a Javadoc example is not a read). */
  private static String code(Path file) {
    try {
      String text = Files.readString(file);
      return text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)^\\s*//.*$", "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Set<Path> javaFiles(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.toString().endsWith(".java"))
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
