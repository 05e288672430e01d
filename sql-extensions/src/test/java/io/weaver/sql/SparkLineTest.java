package io.weaver.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.sql.testing.SqlSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import scala.Function1;
import scala.runtime.BoxedUnit;

/** The jar's Spark line (the real weaver-build.properties) and the refusal of any other. */
public class SparkLineTest {
  private static final Path ROOT =
      Path.of(System.getProperty("weaver.projectRoot", "..")).toAbsolutePath().normalize();
  private static final Pattern SPARK_MINOR =
      Pattern.compile("<spark\\.minor>([^<]+)</spark\\.minor>");

  /** A supported Spark minor other than the jar's, with a patch version. */
  static String anotherSupportedSpark() {
    String line = SparkLine.compiled().line();
    return SparkLine.SUPPORTED.stream().filter(m -> !m.equals(line)).findFirst().orElseThrow()
        + ".2";
  }

  /** Weaver's extension as if the running Spark were another supported minor. */
  public static final class OnAnotherLine implements Function1<SparkSessionExtensions, BoxedUnit> {
    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
      return new WeaverSparkSessionExtensions(anotherSupportedSpark()).apply(extensions);
    }
  }

  @AfterAll
  static void stopSession() {
    SqlSession.stop();
  }

  @Test
  void theJarIsBuiltForTheRunningSparksLine() {
    SparkLine jar = SparkLine.compiled();
    String running = SparkLine.runningSparkVersion();
    assertEquals(SparkLine.minorOf(running), jar.line());
    assertEquals(running, jar.sparkVersion());
    assertEquals("io.weaver:weaver-spark-" + jar.line() + "_2.13", jar.artifact());
    assertTrue(SparkLine.SUPPORTED.contains(jar.line()), jar.line());
    assertNull(jar.mismatch(running));
    jar.requireRunning(running);
  }

  @Test
  void anotherPatchOfTheSameMinorPasses() {
    assertNull(SparkLine.mismatch("4.1.0", "4.1", "io.weaver:weaver-spark-4.1_2.13"));
    assertNull(SparkLine.mismatch("4.1.9-SNAPSHOT", "4.1", "io.weaver:weaver-spark-4.1_2.13"));
    assertNull(SparkLine.mismatch("4.1", "4.1", "io.weaver:weaver-spark-4.1_2.13"));
  }

  @Test
  void anotherSupportedMinorIsRefusedWithItsArtifact() {
    assertEquals(
        "Spark 4.0.2 is running, but this Weaver jar (io.weaver:weaver-spark-4.1_2.13) is built for"
            + " Spark 4.1 and cannot run on another Spark minor. Use"
            + " io.weaver:weaver-spark-4.0_2.13 (Weaver's artifact for Spark 4.0) instead"
            + " (spark.jars.packages or --packages).",
        SparkLine.mismatch("4.0.2", "4.1", "io.weaver:weaver-spark-4.1_2.13"));
    String other = anotherSupportedSpark();
    WeaverSparkLineException e =
        assertThrows(
            WeaverSparkLineException.class, () -> SparkLine.compiled().requireRunning(other));
    String minor = SparkLine.minorOf(other);
    assertTrue(e.getMessage().startsWith("Spark " + other + " is running"), e.getMessage());
    assertTrue(e.getMessage().contains(SparkLine.compiled().artifact()), e.getMessage());
    assertTrue(e.getMessage().contains("Use " + SparkLine.artifactFor(minor)), e.getMessage());
    assertEquals("WEAVER_SPARK_LINE_MISMATCH", e.getCondition());
    assertEquals("0A000", e.getSqlState());
  }

  @Test
  void anUnsupportedSparkIsRefusedWithTheSupportedLines() {
    for (String[] c :
        new String[][] {{"3.5.1", "3.5"}, {"4.3.0", "4.3"}, {"4.10.0", "4.10"}, {"5.0.0", "5.0"}}) {
      assertEquals(
          "Spark "
              + c[0]
              + " is running, but this Weaver jar (io.weaver:weaver-spark-4.1_2.13) is built for"
              + " Spark 4.1 and cannot run on another Spark minor. There is no Weaver artifact"
              + " for Spark "
              + c[1]
              + "; supported: 4.0, 4.1, 4.2.",
          SparkLine.mismatch(c[0], "4.1", "io.weaver:weaver-spark-4.1_2.13"));
    }
    assertTrue(
        SparkLine.mismatch("unknown", "4.1", "io.weaver:weaver-spark-4.1_2.13")
            .contains("no Weaver artifact for Spark unknown;"));
  }

  @Test
  void theSupportedLinesAreTheLinesTheBuildShips() throws IOException {
    Set<String> built = new TreeSet<>();
    built.add(sparkMinor(ROOT.resolve("pom.xml")));
    try (Stream<Path> runtimes = Files.list(ROOT.resolve("sql-extensions/runtime"))) {
      for (Path pom :
          runtimes.map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
        built.add(sparkMinor(pom));
      }
    }
    assertEquals(built, new TreeSet<>(SparkLine.SUPPORTED));
  }

  private static String sparkMinor(Path pom) throws IOException {
    Matcher m = SPARK_MINOR.matcher(Files.readString(pom));
    assertTrue(m.find(), pom + " has no spark.minor");
    return m.group(1);
  }

  /** Spark lets the refusal out of getOrCreate (it only logs linkage errors of an extension). */
  @Test
  void aSessionOnAnotherLineDoesNotStartAndSaysWhy() {
    SqlSession.stop();
    try {
      WeaverSparkLineException e =
          assertThrows(
              WeaverSparkLineException.class,
              () ->
                  SparkSession.builder()
                      .master("local[1]")
                      .appName("weaver-spark-line-test")
                      .config("spark.ui.enabled", "false")
                      .config("spark.sql.extensions", OnAnotherLine.class.getName())
                      .getOrCreate());
      assertEquals(SparkLine.compiled().mismatch(anotherSupportedSpark()), e.getMessage());
    } finally {
      // The SparkContext started before the extensions were applied; the session never did.
      SparkContext.getOrCreate().stop();
    }
    // The real configurator on the real Spark: the session starts and Weaver's statements parse.
    SparkSession spark = SqlSession.get();
    Exception noWorkspace =
        assertThrows(Exception.class, () -> spark.sql("CHECK WEAVER").collect());
    assertEquals(
        "WEAVER_NO_WORKSPACE",
        ((org.apache.spark.SparkThrowable) noWorkspace).getCondition(),
        noWorkspace.toString());
  }
}
