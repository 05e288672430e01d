package io.weaver.embedded;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The jars that executors in their own JVMs need from this driver: Weaver's and Delta's. On a
 * cluster, tasks carry Weaver's and Delta's objects (the row signature {@code ScalaUDF}'s lambda,
 * Delta's writers); an executor without their classes fails the first job with {@code
 * ClassCastException: cannot assign instance of java.lang.invoke.SerializedLambda}. Spark ships
 * {@code spark.jars} to every executor, so a session with a non-local master lists these there.
 * Spark's own jars are the cluster's and are not shipped (a second copy would conflict with them).
 */
final class ExecutorJars {
  /**
   * One class from each jar to ship. With the bundle on the classpath, Weaver's three are in that
   * one jar; run from the modules' jars, they are three. {@code delta-spark} and {@code
   * delta-storage} are what {@code --packages io.delta:delta-spark_2.13} brings.
   */
  static final List<String> MARKER_CLASSES =
      List.of(
          EmbeddedSession.WEAVER_EXTENSIONS, // sql-extensions (or the bundle)
          "io.weaver.catalyst.rules.GuardWeaverTables", // catalyst-rules
          "io.weaver.embedded.EmbeddedSession", // connector
          "io.delta.tables.DeltaTable", // delta-spark
          "io.delta.storage.LogStore"); // delta-storage

  private ExecutorJars() {}

  /**
   * Whether {@code master} runs tasks in this JVM ({@code local}, {@code local[N]}, {@code
   * local[N,F]}, {@code local[*]}). {@code local-cluster[…]} starts executor JVMs: not local.
   */
  static boolean inThisJvm(String master) {
    return master.equals("local") || master.startsWith("local[");
  }

  /**
   * The jar files the {@link #MARKER_CLASSES} were loaded from, each once. A class that is absent,
   * or loaded from a folder (a module's {@code target/classes} in its own tests), adds nothing:
   * {@code spark.jars} takes only files.
   */
  static List<Path> found() {
    List<Path> jars = new ArrayList<>();
    for (String name : MARKER_CLASSES) {
      codeSource(name).filter(p -> !jars.contains(p)).ifPresent(jars::add);
    }
    return jars;
  }

  /**
   * {@code spark.jars}: the entries already {@code given} (by {@code spark-submit --jars} or {@code
   * --packages}, or the user), then each of {@code found} whose file name is not among them. Spark
   * adds one jar per file name, so a second path to the same jar would only log a warning.
   */
  static String merge(Optional<String> given, List<Path> found) {
    Map<String, String> byName = new LinkedHashMap<>();
    given.stream()
        .flatMap(g -> Arrays.stream(g.split(",")))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .forEach(s -> byName.putIfAbsent(fileName(s), s));
    for (Path jar : found) {
      byName.putIfAbsent(jar.getFileName().toString(), jar.toString());
    }
    return String.join(",", byName.values());
  }

  private static String fileName(String pathOrUri) {
    return pathOrUri.substring(pathOrUri.lastIndexOf('/') + 1);
  }

  private static Optional<Path> codeSource(String className) {
    try {
      Class<?> c = Class.forName(className, false, ExecutorJars.class.getClassLoader());
      CodeSource source = c.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        return Optional.empty(); // the JDK's or a generated class: nothing to ship
      }
      Path path = Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
      return Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
    } catch (ClassNotFoundException | LinkageError | URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
