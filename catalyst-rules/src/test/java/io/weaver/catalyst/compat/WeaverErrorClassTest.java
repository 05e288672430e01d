package io.weaver.catalyst.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.AnalysisException;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/** Weaver's error classes: the JSON, the enum, the sources that name them and docs/errors.md. */
class WeaverErrorClassTest {
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern NAME = Pattern.compile("\\bWEAVER_[A-Z0-9_]*[A-Z0-9]\\b");

  /** A class named in code: a string literal or the enum constant (not environment variables). */
  private static final Pattern NAMED =
      Pattern.compile("(?:[\"']|WeaverErrorClass\\.)(WEAVER_[A-Z0-9_]*[A-Z0-9])\\b");

  /** Names in the sources that are environment variables, not error classes. */
  private static final Set<String> ENVIRONMENT_VARIABLES =
      Set.of("WEAVER_PYTHON", "WEAVER_SPARK_VERSION");

  private static Set<String> jsonClasses() {
    return new TreeSet<>(
        CollectionConverters.asJava(WeaverErrorClasses.reader().errorInfoMap()).keySet());
  }

  private static Set<String> enumClasses() {
    return Arrays.stream(WeaverErrorClass.values())
        .map(Enum::name)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void theJsonAndTheEnumNameTheSameClasses() {
    assertEquals(enumClasses(), jsonClasses());
  }

  @Test
  void everyClassHasAFiveCharacterSqlStateAndAMessage() {
    for (WeaverErrorClass c : WeaverErrorClass.values()) {
      assertTrue(c.sqlState().matches("[0-9A-Z]{5}"), c + ": " + c.sqlState());
      assertEquals("as it was", c.message(c.parameters("as it was")), c.name());
    }
  }

  @Test
  void everyClassNamedInTheSourcesExists() throws IOException {
    Set<String> named = new TreeSet<>();
    for (String root :
        new String[] {
          "catalyst-rules/src/main/java",
          "connector/src/main/java",
          "sql-extensions/src/main/java",
          "python-bindings/src/main/python"
        }) {
      try (Stream<Path> files = Files.walk(REPO.resolve(root))) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Matcher m = NAMED.matcher(Files.readString(f));
          while (m.find()) {
            named.add(m.group(1));
          }
        }
      }
    }
    named.removeAll(ENVIRONMENT_VARIABLES);
    named.removeAll(jsonClasses());
    assertEquals(Set.of(), named, "classes named in main code but missing from the JSON");
  }

  @Test
  void pythonStatesTheSqlStatesOfTheJson() throws IOException {
    Pattern pair = Pattern.compile("\"(WEAVER_[A-Z0-9_]+)\",\\s*\"([0-9A-Z]{5})\"");
    Path errors = REPO.resolve("python-bindings/src/main/python/weaver/_errors.py");
    Matcher m = pair.matcher(Files.readString(errors));
    int pairs = 0;
    while (m.find()) {
      assertEquals(WeaverErrorClass.valueOf(m.group(1)).sqlState(), m.group(2), m.group());
      pairs++;
    }
    assertTrue(pairs > 0, "no (class, SQLSTATE) pair found in " + errors);
  }

  @Test
  void docsListEveryClassWithItsSqlState() throws IOException {
    String doc = Files.readString(REPO.resolve("docs/errors.md"));
    for (WeaverErrorClass c : WeaverErrorClass.values()) {
      assertTrue(
          doc.contains("| `" + c.name() + "` | " + c.sqlState() + " |"),
          "docs/errors.md has no row for " + c + " with SQLSTATE " + c.sqlState());
    }
    Matcher m = NAME.matcher(doc);
    while (m.find()) {
      assertTrue(jsonClasses().contains(m.group()), "docs/errors.md names " + m.group());
    }
  }

  @Test
  void anAnalysisExceptionCarriesTheClassAndKeepsTheMessage() {
    Throwable thrown = null;
    try {
      throw SparkErrors.analysis(WeaverErrorClass.WEAVER_TABLE_NOT_FOUND, "no Table A.B.C");
    } catch (Throwable t) {
      thrown = t;
    }
    AnalysisException e = (AnalysisException) thrown;
    assertEquals("no Table A.B.C", e.getMessage());
    assertEquals("WEAVER_TABLE_NOT_FOUND", e.getCondition());
    assertEquals("42P01", e.getSqlState());
    assertEquals(java.util.Map.of("message", "no Table A.B.C"), e.getMessageParameters());
  }

  @Test
  void anEngineErrorCarriesItsClass() {
    WeaverArgumentException e =
        new WeaverArgumentException(WeaverErrorClass.WEAVER_TABLE_NOT_BUILT, "not built");
    assertEquals("WEAVER_TABLE_NOT_BUILT", e.getCondition());
    assertEquals("42P01", e.getSqlState());
    assertEquals(
        WeaverErrorClass.WEAVER_TABLE_NOT_BUILT,
        WeaverArgumentException.classOf(e, WeaverErrorClass.WEAVER_INVALID_REQUEST));
    assertEquals(
        WeaverErrorClass.WEAVER_INVALID_REQUEST,
        WeaverArgumentException.classOf(
            new IllegalArgumentException("x"), WeaverErrorClass.WEAVER_INVALID_REQUEST));
  }
}
