package io.weaver.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spark line (major.minor) this jar was compiled for, and the rule that it runs on that line
 * only.
 *
 * <p>Each Spark minor has its own artifact ({@code io.weaver:weaver-spark-<minor>_2.13}, compiled
 * against that minor's Spark and Delta; docs/decisions.md, "One artifact per Spark minor"). On
 * another minor the jar's classes may link against methods that changed, which fails late and
 * obscurely (a {@code NoSuchMethodError} in the middle of a load) or, while Spark applies the
 * extensions, as a warning Spark logs and then ignores. So the line is checked first, and a
 * mismatch is refused with the artifact to use. The build writes the line into {@value #RESOURCE}
 * (Maven resource filtering); the Python package reads it through {@link #compiled()} too.
 */
public final class SparkLine {
  /** Where the build writes the line, on the class path. */
  public static final String RESOURCE = "io/weaver/weaver-build.properties";

  /**
   * The Spark minors Weaver ships an artifact for (sql-extensions and sql-extensions/runtime;
   * SparkLineTest checks the build agrees, python's weaver/_versions.py has the same list).
   */
  public static final List<String> SUPPORTED = List.of("4.0", "4.1", "4.2");

  private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)(?:\\D.*)?$");

  private static volatile SparkLine compiled;

  private final String line;
  private final String sparkVersion;
  private final String artifact;

  SparkLine(String line, String sparkVersion, String artifact) {
    this.line = line;
    this.sparkVersion = sparkVersion;
    this.artifact = artifact;
  }

  /** The line of this jar, read once from {@value #RESOURCE}. */
  public static SparkLine compiled() {
    SparkLine c = compiled;
    if (c == null) {
      Properties p = new Properties();
      try (InputStream in = SparkLine.class.getClassLoader().getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException(
              RESOURCE
                  + " is not on the class path: this Weaver jar was not built by Maven (the"
                  + " build writes it); build it with mvn package");
        }
        p.load(in);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + RESOURCE, e);
      }
      c =
          new SparkLine(
              p.getProperty("spark.minor"),
              p.getProperty("spark.version"),
              p.getProperty("artifact"));
      compiled = c;
    }
    return c;
  }

  /** The Spark version of this JVM (the Spark that loaded this class). */
  public static String runningSparkVersion() {
    return org.apache.spark.package$.MODULE$.SPARK_VERSION();
  }

  /** The Spark minor this jar was compiled for: {@code 4.1}. */
  public String line() {
    return line;
  }

  /** The exact Spark version this jar was compiled against: {@code 4.1.1}. */
  public String sparkVersion() {
    return sparkVersion;
  }

  /** This jar's Maven coordinates without the version: {@code io.weaver:weaver-spark-4.1_2.13}. */
  public String artifact() {
    return artifact;
  }

  /** The artifact of Spark minor {@code minor} ({@code 4.0}): {@code io.weaver:weaver-spark-…}. */
  public static String artifactFor(String minor) {
    return "io.weaver:weaver-spark-" + minor + "_2.13";
  }

  /** The major.minor of a Spark version ({@code 4.1} of {@code 4.1.1}), or null if it has none. */
  public static String minorOf(String version) {
    Matcher m = MAJOR_MINOR.matcher(version == null ? "" : version.trim());
    return m.matches() ? m.group(1) + "." + m.group(2) : null;
  }

  /**
   * Why a jar of line {@code jarLine} ({@code jarArtifact}) cannot run on Spark {@code running}, or
   * null when it can (same major.minor).
   */
  public static String mismatch(String running, String jarLine, String jarArtifact) {
    String runningMinor = minorOf(running);
    if (runningMinor != null && runningMinor.equals(jarLine)) {
      return null;
    }
    String refused =
        "Spark "
            + running
            + " is running, but this Weaver jar ("
            + jarArtifact
            + ") is built for Spark "
            + jarLine
            + " and cannot run on another Spark minor. ";
    if (runningMinor != null && SUPPORTED.contains(runningMinor)) {
      return refused
          + "Use "
          + artifactFor(runningMinor)
          + " (Weaver's artifact for Spark "
          + runningMinor
          + ") instead (spark.jars.packages or --packages).";
    }
    return refused
        + "There is no Weaver artifact for Spark "
        + (runningMinor == null ? running : runningMinor)
        + "; supported: "
        + String.join(", ", SUPPORTED)
        + ".";
  }

  /** Why this jar cannot run on Spark {@code running}, or null when it can. */
  public String mismatch(String running) {
    return mismatch(running, line, artifact);
  }

  /** Refuses Spark {@code running} unless it is this jar's line. */
  public void requireRunning(String running) {
    String why = mismatch(running);
    if (why != null) {
      throw new WeaverSparkLineException(why);
    }
  }
}
