package io.weaver.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No test-only code in the product jars: test support (fault injection, oracles, fixtures) lives in
 * test sources, the connector's test jar when several modules' tests share it.
 *
 * <p>The strongest check: a main class that no other main class uses is reached from outside the
 * jars or by nobody but tests. Every such class must be an entry point — named by the Python
 * package, registered in {@code META-INF/services}, a {@code main} method, or one of the {@link
 * #ENTRY_POINTS} below, each with the reason outsiders reach it. A class written for tests alone
 * (as the T-SQL evaluator and the fault arming once were) fails here.
 */
class TestOnlyCodeTest {
  /** The repository root, from sql-extensions (where Maven runs this test). */
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** Main classes reached from outside the jars, by a name this test cannot find in code. */
  static final Map<String, String> ENTRY_POINTS =
      Map.of(
          "io.weaver.sql.WeaverSparkSessionExtensions",
          "users name it in spark.sql.extensions",
          "io.weaver.Version",
          "the build's version constant, read by anything");

  /** Static methods that no main code calls and that are still product code, with why. */
  static final Map<String, String> OUTSIDE_CALLS =
      Map.of(
          "io.weaver.load.FaultPoints#install",
          "the seam tests install faults through; the faults themselves live in the test jar");

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = MainClasses.get();
  }

  @Test
  void everyMainClassIsUsedByMainCodeOrIsAnEntryPoint() {
    Set<String> entryPoints = new TreeSet<>(ENTRY_POINTS.keySet());
    entryPoints.addAll(namedByThePythonPackage());
    entryPoints.addAll(registeredServices());
    Set<String> unused = new TreeSet<>();
    for (JavaClass c : classes) {
      if (c.isTopLevelClass()
          && !c.getSimpleName().equals("package-info")
          && !entryPoints.contains(c.getName())
          && !hasMainMethod(c)
          && !onlyConstants(c)
          && !usedByAnotherMainClass(c)) {
        unused.add(c.getName());
      }
    }
    assertEquals(
        Set.of(),
        unused,
        "main classes no main class uses: test-only code belongs in test sources (the"
            + " connector's test jar when other modules' tests need it); an entry point reached"
            + " from outside goes into ENTRY_POINTS with its reason");
    assertTrue(entryPoints.size() > 3, "entry points found: " + entryPoints);
  }

  /**
   * A static method no main code calls (the shape of the old {@code TsqlSignature.evaluate}, "for
   * tests") is test code too, unless its class is an entry point that outsiders call.
   */
  @Test
  void everyStaticMethodIsCalledByMainCodeOrIsAnEntryPoint() {
    Set<String> entryPoints = new TreeSet<>(ENTRY_POINTS.keySet());
    entryPoints.addAll(namedByThePythonPackage());
    entryPoints.addAll(registeredServices());
    Set<String> uncalled = new TreeSet<>();
    for (JavaClass c : classes) {
      if (entryPoints.contains(topLevel(c).getName())) {
        continue;
      }
      for (JavaMethod m : c.getMethods()) {
        String name = c.getName() + "#" + m.getName();
        if (m.getModifiers().contains(JavaModifier.STATIC)
            && !m.getModifiers().contains(JavaModifier.PRIVATE)
            && !m.getModifiers().contains(JavaModifier.SYNTHETIC)
            && !m.getName().contains("$")
            && !Set.of("main", "values", "valueOf").contains(m.getName())
            && m.getAccessesToSelf().isEmpty()
            && !OUTSIDE_CALLS.containsKey(name)) {
          uncalled.add(name);
        }
      }
    }
    assertEquals(
        Set.of(),
        uncalled,
        "static methods no main code calls: a method for tests belongs in test sources; one"
            + " outsiders call goes into OUTSIDE_CALLS with its reason");
  }

  @Test
  void noMainClassDependsOnATestLibrary() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.junit..", "org.assertj..", "org.mockito..", "com.tngtech..")
        .because("test libraries are not on a user's classpath")
        .check(classes);
  }

  @Test
  void noMainClassIsNamedAsTestSupport() {
    noClasses()
        .should()
        .resideInAnyPackage("..testing..", "..fixtures..")
        .orShould()
        .haveSimpleNameEndingWith("Faults")
        .orShould()
        .haveSimpleNameStartingWith("Injected")
        .orShould()
        .haveSimpleNameEndingWith("Oracle")
        .because("fault injection, oracles and fixtures are test support")
        .check(classes);
    noMethods()
        .should()
        .haveNameMatching(".*(ForTests?|ForTesting)")
        .because("a method for tests belongs to test code")
        .check(classes);
  }

  /** Whether a class other than {@code c} and its nested classes uses {@code c} or one of them. */
  private static boolean usedByAnotherMainClass(JavaClass c) {
    return Stream.concat(Stream.of(c), nested(c))
        .flatMap(member -> member.getDirectDependenciesToSelf().stream())
        .anyMatch(d -> !topLevel(d.getOriginClass()).equals(c));
  }

  private static Stream<JavaClass> nested(JavaClass c) {
    return classes.stream().filter(other -> !other.equals(c) && topLevel(other).equals(c));
  }

  /**
   * A holder of compile-time constants only ({@code RuleIds}): javac copies the constants into the
   * classes that use them, so no use shows in the bytecode.
   */
  private static boolean onlyConstants(JavaClass c) {
    boolean onlyConstructors =
        c.getMethods().stream().allMatch(m -> m.getModifiers().contains(JavaModifier.SYNTHETIC));
    boolean constants =
        c.getFields().stream()
            .allMatch(
                f ->
                    f.getModifiers().containsAll(Set.of(JavaModifier.STATIC, JavaModifier.FINAL))
                        && (f.getRawType().isPrimitive()
                            || f.getRawType().isEquivalentTo(String.class)));
    return onlyConstructors && constants && !c.getFields().isEmpty();
  }

  private static JavaClass topLevel(JavaClass c) {
    JavaClass out = c;
    while (out.getEnclosingClass().isPresent()) {
      out = out.getEnclosingClass().get();
    }
    return out;
  }

  private static boolean hasMainMethod(JavaClass c) {
    for (JavaMethod m : c.getMethods()) {
      if (m.getName().equals("main")
          && m.getModifiers().contains(JavaModifier.STATIC)
          && m.getRawParameterTypes().size() == 1
          && m.getRawParameterTypes().get(0).getName().equals(String[].class.getName())) {
        return true;
      }
    }
    return false;
  }

  /** Classes the {@code weaver} Python package names (it reaches them through py4j). */
  private static Set<String> namedByThePythonPackage() {
    Pattern name = Pattern.compile("io\\.weaver(?:\\.[a-z][a-z0-9_]*)+\\.[A-Z][A-Za-z0-9]*");
    Set<String> out = new TreeSet<>();
    for (Path file : files(ROOT.resolve("python-bindings/src/main/python"), ".py")) {
      Matcher m = name.matcher(read(file));
      while (m.find()) {
        out.add(m.group());
      }
    }
    return out;
  }

  /** Classes the jars register in {@code META-INF/services} (Spark loads them by name). */
  private static Set<String> registeredServices() {
    Set<String> out = new TreeSet<>();
    for (String module :
        new String[] {"catalyst-rules", "connector", "connector/tools", "sql-extensions"}) {
      Path services = ROOT.resolve(module).resolve("src/main/resources/META-INF/services");
      for (Path file : files(services, "")) {
        read(file).lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(out::add);
      }
    }
    return out;
  }

  private static Set<Path> files(Path dir, String suffix) {
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> p.toString().endsWith(suffix))
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
