package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a Python app with {@code spark-submit} from the Spark distribution inside the installed
 * {@code pyspark} wheel, with the shipped Weaver bundle resolved by {@code --packages} from a
 * file-based Maven repository, as a user does. Reusable by any test that submits a Python app:
 * {@code BundleSubmit.prepare(dir).runPythonApp(source, confs)}.
 *
 * <p>Delta comes from the jars Maven resolved for this module ({@code --jars}): Spark's Ivy finds
 * Delta's POMs in {@code ~/.m2} but not every transitive jar (Maven downloads only the POMs of
 * versions it mediated away), so {@code --packages io.delta:…} needs Maven Central; this keeps the
 * test offline. Users pass {@code --packages io.delta:delta-spark_2.13:<version>}.
 */
final class BundleSubmit {
  /** What users type: {@code io.weaver:weaver-spark-<minor>_2.13:<version>}. */
  static final String GROUP_ID = "io.weaver";

  /**
   * The artifact of the Spark line under test (the build's own, or another line's in a
   * cross-version leg: integration-tests/pom.xml sets it from the profile).
   */
  static final String ARTIFACT_ID =
      System.getProperty("weaver.bundle.artifactId", "weaver-spark-4.1_2.13");

  /** The module that builds it: sql-extensions, or sql-extensions/runtime/spark-X.Y. */
  static final String MODULE = System.getProperty("weaver.bundle.module", "sql-extensions");

  /** The session extensions a Weaver + Delta app sets. */
  static final String EXTENSIONS =
      "io.weaver.sql.WeaverSparkSessionExtensions,io.delta.sql.DeltaSparkSessionExtension";

  record Result(int exit, String out, String err, long millis) {
    /** The lines of standard output that start with {@code prefix + " "}, without the prefix. */
    List<String> lines(String prefix) {
      return out.lines()
          .filter(l -> l.startsWith(prefix + " "))
          .map(l -> l.substring(prefix.length() + 1))
          .toList();
    }

    String describe() {
      return "exit " + exit + "\n--- stdout\n" + out + "\n--- stderr (last 80 lines)\n" + tail(err);
    }

    private static String tail(String s) {
      List<String> all = s.lines().toList();
      return String.join("\n", all.subList(Math.max(0, all.size() - 80), all.size()));
    }
  }

  final Path dir;
  final Path repository;
  final Path bundle;
  final String version;
  final String python;
  final Path sparkHome;
  final List<Path> deltaJars;

  private BundleSubmit(
      Path dir,
      Path repository,
      Path bundle,
      String version,
      String python,
      Path sparkHome,
      List<Path> deltaJars) {
    this.dir = dir;
    this.repository = repository;
    this.bundle = bundle;
    this.version = version;
    this.python = python;
    this.sparkHome = sparkHome;
    this.deltaJars = deltaJars;
  }

  /** {@code io.weaver:weaver-spark-<minor>_2.13:<version>}, what {@code --packages} takes. */
  String coordinate() {
    return GROUP_ID + ":" + ARTIFACT_ID + ":" + version;
  }

  static String version() {
    return System.getProperty("weaver.version", "0.1.0-SNAPSHOT");
  }

  /** The bundle jar and its dependency-reduced POM as the build left them. */
  static Path bundleJar() {
    return BinWeaverCheckTest.projectRoot()
        .resolve(MODULE + "/target/" + ARTIFACT_ID + "-" + version() + ".jar");
  }

  static Path bundlePom() {
    return BinWeaverCheckTest.projectRoot().resolve(MODULE + "/target/dependency-reduced-pom.xml");
  }

  static void requireBundle() {
    if (!Files.isRegularFile(bundleJar()) || !Files.isRegularFile(bundlePom())) {
      fail(
          "the Weaver bundle "
              + bundleJar()
              + " (and its dependency-reduced-pom.xml) is missing: the package phase of"
              + " sql-extensions builds it; run 'mvn -B -pl integration-tests -am verify'");
    }
  }

  /** A copy of the example workspace, without anything a local run left in it. */
  static Path copyExample(Path target) throws IOException {
    copyTree(BinWeaverCheckTest.projectRoot().resolve("examples/logistics"), target);
    return target;
  }

  /** Copies a workspace folder, leaving out its {@code .weaver} (what a local run left). */
  static void copyTree(Path from, Path to) throws IOException {
    try (java.util.stream.Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path relative = from.relativize(p);
        if (relative.startsWith(".weaver")) {
          continue;
        }
        Path copy = to.resolve(relative.toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(copy);
        } else {
          Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /**
   * The Java home for the processes a test starts: the build's {@code JAVA_HOME} when it sets one
   * (the java-21 profile's, whose {@code java} drops the one option its runtime cannot take,
   * bin/weaver-java), else this JVM's own.
   */
  static String javaHome() {
    String home = System.getenv("JAVA_HOME");
    return home == null || home.isBlank() ? System.getProperty("java.home") : home;
  }

  /**
   * Finds pyspark (skips when it is absent outside CI; fails in CI), lays out a Maven repository
   * under {@code dir/repo} holding the bundle, its POM and the parent POM it names.
   */
  static BundleSubmit prepare(Path dir) throws IOException, InterruptedException {
    requireBundle();
    String python = System.getProperty("python.executable", "python3");
    List<String> probe =
        run(
            List.of(
                python,
                "-c",
                "import os, pyspark; print(pyspark.__version__); print(os.path.dirname(pyspark.__file__))"),
            Map.of());
    if (probe == null) {
      String why =
          "pyspark is not installed for '"
              + python
              + "': run with the build's default python.executable (bin/weaver-python)";
      if (System.getenv("CI") != null && !System.getenv("CI").isBlank()) {
        fail(why + " (CI installs it; this test must run in CI)");
      }
      Assumptions.abort("skipped, " + why);
    }
    String pysparkVersion = probe.get(0).strip();
    String sparkVersion = System.getProperty("spark.version", pysparkVersion);
    Assumptions.assumeTrue(
        pysparkVersion.equals(sparkVersion),
        "skipped: pyspark "
            + pysparkVersion
            + " does not match the Spark version of this build ("
            + sparkVersion
            + "); install pyspark=="
            + sparkVersion);
    Path sparkHome = Path.of(probe.get(1).strip());

    String v = version();
    Path repository = dir.resolve("repo");
    Path artifactDir = repository.resolve("io/weaver/" + ARTIFACT_ID + "/" + v);
    Path parentDir = repository.resolve("io/weaver/weaver-parent/" + v);
    Files.createDirectories(artifactDir);
    Files.createDirectories(parentDir);
    Path bundle = artifactDir.resolve(ARTIFACT_ID + "-" + v + ".jar");
    Files.copy(bundleJar(), bundle, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(
        bundlePom(),
        artifactDir.resolve(ARTIFACT_ID + "-" + v + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);
    Files.copy(
        BinWeaverCheckTest.projectRoot().resolve("pom.xml"),
        parentDir.resolve("weaver-parent-" + v + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);
    // Another line's artifact names sql-extensions/runtime's POM as its parent.
    Path runtimesDir = repository.resolve("io/weaver/weaver-spark-runtimes/" + v);
    Files.createDirectories(runtimesDir);
    Files.copy(
        BinWeaverCheckTest.projectRoot().resolve("sql-extensions/runtime/pom.xml"),
        runtimesDir.resolve("weaver-spark-runtimes-" + v + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);

    List<Path> deltaJars =
        java.util.Arrays.stream(
                System.getProperty("java.class.path").split(java.io.File.pathSeparator))
            .map(Path::of)
            .filter(p -> p.toString().replace('\\', '/').contains("/io/delta/"))
            .filter(p -> p.getFileName().toString().endsWith(".jar"))
            .toList();
    assertTrue(
        deltaJars.stream().anyMatch(p -> p.getFileName().toString().startsWith("delta-spark_")),
        "delta-spark is not on this module's test classpath: " + deltaJars);
    return new BundleSubmit(dir, repository, bundle, v, python, sparkHome, deltaJars);
  }

  /**
   * Writes {@code source} to {@code dir/app.py} and runs it with {@code spark-submit --packages
   * <coordinate>} (local[2], quiet logs, small shuffles, Weaver + Delta extensions) plus {@code
   * conf}.
   */
  Result runPythonApp(String source, Map<String, String> conf)
      throws IOException, InterruptedException {
    return runPythonApp(source, conf, "local[2]");
  }

  /** {@link #runPythonApp(String, Map)} with {@code --master master} (e.g. {@code spark://…}). */
  Result runPythonApp(String source, Map<String, String> conf, String master)
      throws IOException, InterruptedException {
    Path app = dir.resolve("app.py");
    Files.writeString(app, source, StandardCharsets.UTF_8);
    Path log4j = dir.resolve("log4j2.properties");
    Files.writeString(
        log4j,
        String.join(
            "\n",
            "rootLogger.level = warn",
            "rootLogger.appenderRef.stderr.ref = console",
            "appender.console.type = Console",
            "appender.console.name = console",
            "appender.console.target = SYSTEM_ERR",
            "appender.console.layout.type = PatternLayout",
            "appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex",
            "logger.weaver.name = io.weaver",
            "logger.weaver.level = info",
            ""));

    Map<String, String> all = new LinkedHashMap<>();
    all.put("spark.jars.ivy", dir.resolve("ivy").toString()); // fresh: SNAPSHOTs are not reused
    all.put("spark.ui.enabled", "false");
    all.put("spark.sql.shuffle.partitions", "2");
    all.put("spark.databricks.delta.snapshotPartitions", "1");
    all.put("spark.sql.warehouse.dir", dir.resolve("warehouse").toString());
    all.put("spark.sql.extensions", EXTENSIONS);
    all.put("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    all.put("spark.driver.extraJavaOptions", "-Dlog4j2.configurationFile=" + log4j.toUri());
    all.putAll(conf);

    List<String> command = new ArrayList<>();
    command.add(sparkHome.resolve("bin/spark-submit").toString());
    command.addAll(List.of("--master", master));
    command.addAll(List.of("--repositories", repository.toUri().toString()));
    command.addAll(List.of("--packages", coordinate()));
    command.addAll(
        List.of("--jars", deltaJars.stream().map(Path::toString).collect(Collectors.joining(","))));
    all.forEach((k, v) -> command.addAll(List.of("--conf", k + "=" + v)));
    command.add(app.toString());

    Map<String, String> env = new LinkedHashMap<>();
    env.put("SPARK_HOME", sparkHome.toString());
    env.put("JAVA_HOME", javaHome());
    env.put("PYSPARK_PYTHON", python);
    env.put("PYSPARK_DRIVER_PYTHON", python);
    env.put("SPARK_LOCAL_IP", "127.0.0.1"); // the driver on loopback, where a test's cluster is
    // Ivy's first resolver is ~/.m2/repository: a developer's `mvn install` would shadow the
    // bundle laid out for this test. An empty home keeps the resolution to the test's repository.
    Path home = Files.createDirectories(dir.resolve("home"));
    env.put("SPARK_SUBMIT_OPTS", "-Duser.home=" + home);

    Path out = dir.resolve("spark-submit.out");
    Path err = dir.resolve("spark-submit.err");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().putAll(env);
    // `import weaver` must come from the bundle, not from sources on an inherited path.
    builder.environment().remove("PYTHONPATH");
    builder.environment().remove("SPARK_CONF_DIR");
    long start = System.nanoTime();
    Process process = builder.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("spark-submit did not finish in 10 minutes; stderr in " + err);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8),
        millis);
  }

  /** Runs a short command; its stdout lines, or null when it fails or cannot start. */
  private static List<String> run(List<String> command, Map<String, String> env)
      throws InterruptedException {
    try {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(false);
      builder.environment().putAll(env);
      builder.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process process = builder.start();
      String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
        return null;
      }
      return text.lines().toList();
    } catch (IOException e) {
      return null;
    }
  }
}
