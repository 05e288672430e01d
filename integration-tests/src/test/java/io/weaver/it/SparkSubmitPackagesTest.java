package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * What the shipped artifact holds, and what its POM makes {@code --packages} pull. The artifact as
 * users submit it: {@code spark-submit --packages io.weaver:weaver-spark-4.1_2.13:<version>} of a
 * Python app that imports {@code weaver} from the bundle and builds, loads and restores a Table
 * with SQL statements, on a standalone cluster ({@link
 * StandaloneClusterTest#sparkSubmitWithPackagesBuildsLoadsAndRestoresOnTheCluster}), and with a
 * local master in the session contract ({@link SessionContractTest}, SPARK_SUBMIT_BUNDLE).
 */
class SparkSubmitPackagesTest {
  @Test
  void bundleHoldsWeaverAndShadedYamlButNoSparkDeltaOrAntlr() throws IOException {
    BundleSubmit.requireBundle();
    List<String> names = new ArrayList<>();
    try (ZipFile zip = new ZipFile(BundleSubmit.bundleJar().toFile())) {
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        names.add(e.nextElement().getName());
      }
    }
    for (String expected :
        List.of(
            "io/weaver/sql/WeaverSparkSessionExtensions.class", // sql-extensions
            "io/weaver/api/WeaverWorkspace.class", // connector
            "io/weaver/shaded/org/yaml/snakeyaml/Yaml.class", // relocated SnakeYAML
            "weaver/__init__.py", // the Python package at the jar root
            "weaver/table.py")) {
      assertTrue(names.contains(expected), "the bundle lacks " + expected);
    }
    assertTrue(
        names.stream().anyMatch(n -> n.startsWith("io/weaver/catalyst/")),
        "the bundle lacks the Catalyst rules");
    List<String> foreign =
        names.stream()
            .filter(n -> n.endsWith(".class"))
            .filter(n -> !n.startsWith("io/weaver/"))
            .limit(5)
            .toList();
    assertEquals(List.of(), foreign, "classes outside io/weaver/ (unshaded or not provided)");

    String pom = Files.readString(BundleSubmit.bundlePom(), StandardCharsets.UTF_8);
    Matcher dependency =
        Pattern.compile("<dependency>.*?</dependency>", Pattern.DOTALL).matcher(pom);
    int count = 0;
    while (dependency.find()) {
      String d = dependency.group();
      count++;
      assertTrue(
          d.contains("<scope>provided</scope>") || d.contains("<scope>test</scope>"),
          "the published POM must not make --packages pull a dependency the bundle holds: " + d);
      // The connector's test jar (test scope) is the one io.weaver dependency a POM may name:
      // neither --packages nor a Maven consumer resolves a dependency's test scope.
      assertFalse(
          d.contains("<groupId>io.weaver</groupId>") && !d.contains("<scope>test</scope>"), d);
      assertFalse(d.contains("snakeyaml"), d);
    }
    assertTrue(count > 0, "no dependencies in " + BundleSubmit.bundlePom());
  }

  /**
   * The bundle is the engine only: the command line and the docs site (module connector/tools,
   * docs/architecture.md "Modules") and the graph layout only they use (ELK, EMF, Guava) stay out
   * of every user's Spark classpath; bin/weaver runs them from their own jar.
   */
  @Test
  void bundleHoldsNeitherTheCommandLineNorTheDocsSite() throws IOException {
    BundleSubmit.requireBundle();
    List<String> tools = new ArrayList<>();
    try (ZipFile zip = new ZipFile(BundleSubmit.bundleJar().toFile())) {
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        String name = e.nextElement().getName();
        if (name.startsWith("io/weaver/cli/")
            || name.startsWith("io/weaver/site/")
            || name.startsWith("io/weaver/shaded/org/eclipse/")
            || name.startsWith("io/weaver/shaded/com/google/")
            || name.startsWith("org/eclipse/")
            || name.startsWith("com/google/")) {
          tools.add(name);
        }
      }
    }
    assertEquals(
        List.of(),
        tools.stream().limit(5).toList(),
        "tools' classes in the bundle (" + tools.size() + ")");
  }
}
