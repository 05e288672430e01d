package io.weaver.catalyst.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
  void everyClassHasAFiveCharacterSqlStateAndTheMessageAsItsTemplate() {
    for (WeaverErrorClass c : WeaverErrorClass.values()) {
      assertTrue(c.sqlState().matches("[0-9A-Z]{5}"), c + ": " + c.sqlState());
      // The template is the message parameter alone, so the text is the one composed at the throw.
      assertEquals("<message>", WeaverErrorClasses.reader().getMessageTemplate(c.name()), c.name());
    }
  }

  @Test
  void everyClassDeclaresItsParametersMessageFirst() {
    Set<String> known =
        Arrays.stream(ErrorParameter.values()).map(ErrorParameter::key).collect(Collectors.toSet());
    for (WeaverErrorClass c : WeaverErrorClass.values()) {
      List<String> names = c.parameterNames();
      assertEquals("message", names.get(0), c.name());
      assertEquals(names.size(), Set.copyOf(names).size(), c + " declares a parameter twice");
      assertTrue(known.containsAll(names), c + " declares " + names);
    }
    // One exception (a load's) carries any of the three, with the same facts.
    assertEquals(
        WeaverErrorClass.WEAVER_LOAD_FAILED.parameterNames(),
        WeaverErrorClass.WEAVER_LOAD_REFUSED.parameterNames());
    assertEquals(
        WeaverErrorClass.WEAVER_LOAD_FAILED.parameterNames(),
        WeaverErrorClass.WEAVER_LOAD_SKIPPED.parameterNames());
  }

  /**
   * Every throw of a Weaver error in main code passes exactly the parameters its class declares: a
   * call of {@code SparkErrors.analysis} or {@code new WeaverArgumentException} names the class and
   * its {@code ErrorParameter}s; an exception class of its own names them in its file. A call that
   * forwards another error's facts ({@code e.facts()}) passes what that error's class declares.
   */
  @Test
  void everyThrowPassesExactlyTheDeclaredParameters() throws IOException {
    Pattern call =
        Pattern.compile(
            "SparkErrors\\.analysis\\(|new WeaverArgumentException\\(|new UsageException\\("
                + "|FailureDocument\\.of\\(");
    List<String> wrong = new ArrayList<>();
    int sites = 0;
    for (Path f : mainSources()) {
      String text = Files.readString(f);
      String file = REPO.relativize(f).toString();
      // An exception class of its own names its class and facts, unless its facts are its load
      // result's (checked below).
      if (text.contains("implements WeaverThrowable") && !text.contains("errorFacts()")) {
        sites++;
        checkSite(file, text, wrong);
      }
      Matcher m = call.matcher(text);
      while (m.find()) {
        String args = text.substring(m.end() - 1, closing(text, m.end() - 1) + 1);
        if (!forwards(args)) {
          sites++;
          checkSite(file + ":" + lineOf(text, m.start()), args, wrong);
        }
      }
    }
    // A load's facts are its result row's, whichever of the load classes its status has.
    checkSite(
        "LoadResult.errorFacts",
        Files.readString(
                REPO.resolve("connector/src/main/java/io/weaver/load/records/LoadResult.java"))
            + " WeaverErrorClass.WEAVER_LOAD_FAILED",
        wrong);
    assertEquals(List.of(), wrong);
    assertTrue(sites > 30, "only " + sites + " throw sites found");
  }

  /**
   * Whether {@code code} passes the facts an error already has ({@code e.facts()}), or that one
   * place builds for its class ({@code WeaverCheckException.factsOf}, {@code
   * LoadResult.errorFacts}; those places are checked themselves).
   */
  private static boolean forwards(String code) {
    return code.contains(".facts()") || code.contains("factsOf(") || code.contains("errorFacts()");
  }

  private static final Pattern CLASS_NAMED = Pattern.compile("WeaverErrorClass\\.(WEAVER_\\w+)");
  private static final Pattern PARAMETER_NAMED = Pattern.compile("ErrorParameter\\.([A-Z_]+)\\b");

  private static void checkSite(String where, String code, List<String> wrong) {
    Set<String> passed = new TreeSet<>(Set.of("message"));
    Matcher p = PARAMETER_NAMED.matcher(code);
    while (p.find()) {
      passed.add(ErrorParameter.valueOf(p.group(1)).key());
    }
    Matcher c = CLASS_NAMED.matcher(code);
    while (c.find()) {
      Set<String> declared = new TreeSet<>(WeaverErrorClass.valueOf(c.group(1)).parameterNames());
      if (!declared.equals(passed)) {
        wrong.add(where + ": " + c.group(1) + " declares " + declared + ", passed " + passed);
      }
    }
  }

  private static List<Path> mainSources() throws IOException {
    List<Path> sources = new ArrayList<>();
    for (String root :
        new String[] {
          "catalyst-rules/src/main",
          "connector/src/main/java",
          "connector/tools/src/main/java",
          "sql-extensions/src/main/java"
        }) {
      try (Stream<Path> files = Files.walk(REPO.resolve(root))) {
        files
            .filter(f -> f.toString().endsWith(".java"))
            .filter(f -> !f.getFileName().toString().equals("WeaverThrowable.java"))
            .forEach(sources::add);
      }
    }
    return sources;
  }

  private static int lineOf(String text, int offset) {
    return (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count() + 1;
  }

  /** The index of the parenthesis that closes the one at {@code open}, past string literals. */
  private static int closing(String text, int open) {
    int depth = 0;
    for (int i = open; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch == '"' || ch == '\'') {
        i++;
        while (text.charAt(i) != ch) {
          i += text.charAt(i) == '\\' ? 2 : 1;
        }
      } else if (ch == '(') {
        depth++;
      } else if (ch == ')' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalStateException("unclosed call at " + open);
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
  void docsListEveryClassWithItsSqlStateAndParameters() throws IOException {
    String doc = Files.readString(REPO.resolve("docs/errors.md"));
    for (WeaverErrorClass c : WeaverErrorClass.values()) {
      String row =
          "| `"
              + c.name()
              + "` | "
              + c.sqlState()
              + " | "
              + c.parameterNames().stream()
                  .map(n -> "`" + n + "`")
                  .collect(Collectors.joining(", "))
              + " |";
      assertTrue(
          doc.contains(row),
          "docs/errors.md has no row for " + c + " with its SQLSTATE and parameters: " + row);
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
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_TABLE_NOT_FOUND,
          "no Table A.B.C",
          ErrorFacts.of(ErrorParameter.TABLE, "A.B.C"));
    } catch (Throwable t) {
      thrown = t;
    }
    AnalysisException e = (AnalysisException) thrown;
    assertEquals("no Table A.B.C", e.getMessage());
    assertEquals("WEAVER_TABLE_NOT_FOUND", e.getCondition());
    assertEquals("42P01", e.getSqlState());
    assertEquals(
        Map.of("message", "no Table A.B.C", "table", "A.B.C"),
        CollectionConverters.asJava(e.messageParameters()));
    assertEquals(Map.of("message", "no Table A.B.C", "table", "A.B.C"), e.getMessageParameters());
  }

  @Test
  void anEngineErrorCarriesItsClassAndFacts() {
    WeaverArgumentException e =
        new WeaverArgumentException(
            WeaverErrorClass.WEAVER_TABLE_NOT_BUILT,
            "not built",
            ErrorFacts.of(ErrorParameter.TABLE, "A.B.C"));
    assertEquals("WEAVER_TABLE_NOT_BUILT", e.getCondition());
    assertEquals("42P01", e.getSqlState());
    assertEquals("not built", e.getMessage());
    assertEquals(List.of("message", "table"), List.copyOf(e.getMessageParameters().keySet()));
    assertEquals(Map.of("message", "not built", "table", "A.B.C"), e.getMessageParameters());
  }

  @Test
  void aFactTheClassDoesNotDeclareIsNotPassedAndANullIsEmpty() {
    WeaverArgumentException e =
        new WeaverArgumentException(
            WeaverErrorClass.WEAVER_TABLE_NOT_BUILT,
            "not built",
            ErrorFacts.of(ErrorParameter.TABLE, null, ErrorParameter.COLUMN, "c"));
    assertEquals(Map.of("message", "not built", "table", ""), e.getMessageParameters());
  }
}
