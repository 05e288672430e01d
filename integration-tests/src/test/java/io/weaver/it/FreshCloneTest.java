package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command on a fresh machine: in a fresh clone, with a {@code python3} that has
 * neither PySpark nor pytest first on PATH, {@code bin/weaver run --workspace examples/logistics}
 * builds the project, creates its Python environment and loads every Lakehouse Table from the
 * example's landing files; a rerun writes nothing; after {@code examples/logistics/deliver-second}
 * the next run shows updates, soft deletes, an incremental read of the new file and a stability
 * gate (the README's walk-through, as a user runs it); and {@code bin/weaver load} of a Python
 * Table without a usable Python fails saying how to get one.
 *
 * <p>The clone is HEAD of the repository this test runs in plus the working tree's uncommitted
 * changes (tracked and untracked, not ignored), so during development it runs what would be
 * committed; in CI the tree is clean. Cost, chosen for CI's time: the Python environment is created
 * for real in an empty {@code XDG_CACHE_HOME}, with pip's own cache kept ({@code PIP_CACHE_DIR}) so
 * pyspark's ~450 MB wheel comes from the disk, not PyPI, once the build's own environment was made
 * (docs/decisions.md, Command line). The clone's build is bin/weaver's own first-use {@code mvn -B
 * -q -DskipTests package -pl sql-extensions -am}, run in the clone; the {@code mvn} it finds first
 * on PATH is a stand-in that records the call and "builds" by copying the artifacts this build
 * already made of the very same sources (sql-extensions/target's jar, classpath files and versions
 * file), so the sources are not compiled a second time: that a fresh clone compiles and packages is
 * what CI's own {@code mvn -B verify} in its fresh clone proves. The stand-in is used only when
 * those artifacts are newer than every source and pom (the rule bin/weaver applies); otherwise, or
 * with {@code -Dweaver.freshClone.realBuild=true} (about two minutes more), the real Maven builds
 * the clone.
 */
class FreshCloneTest {
  @TempDir Path dir;

  @Test
  void theReadmesFirstCommandWorksInAFreshCloneWithoutPySpark() throws Exception {
    Path base = Path.of("/usr/bin/python3");
    Assumptions.assumeTrue(
        Files.isExecutable(base), "needs /usr/bin/python3, a Python without PySpark");
    assertNotEquals(
        0,
        run(List.of(base.toString(), "-c", "import pyspark"), dir, Map.of()).exit(),
        base + " must not have PySpark for this test to mean anything");

    Path clone = dir.resolve("weaver");
    Path root = BinWeaverCheckTest.projectRoot();
    check(
        run(List.of("git", "clone", "--quiet", root.toString(), clone.toString()), dir, Map.of()));
    copyUncommittedChanges(root, clone);

    Path bin = Files.createDirectories(dir.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("python3"), base);
    Path mavenCalls = dir.resolve("mvn-calls.txt");
    boolean standIn = !Boolean.getBoolean("weaver.freshClone.realBuild") && builtIsCurrent(root);
    if (standIn) {
      mavenStandIn(bin, root, mavenCalls);
    }
    Path cache = Files.createDirectories(dir.resolve("cache"));
    Map<String, String> env =
        Map.of(
            "PATH", bin + File.pathSeparator + System.getenv("PATH"),
            "XDG_CACHE_HOME", cache.toString(),
            "PIP_CACHE_DIR", pipCache().toString());

    Result r = run(List.of("bin/weaver", "run", "--workspace", "examples/logistics"), clone, env);
    assertEquals(0, r.exit(), r.out() + r.err());
    assertTrue(r.err().contains("weaver: building the project"), r.err());
    if (standIn) {
      assertEquals(
          clone.toRealPath() + " -B -q -DskipTests package -pl sql-extensions -am\n",
          Files.readString(mavenCalls),
          "bin/weaver builds the clone once, in its root");
    }
    assertTrue(r.err().contains("weaver: creating the Python environment " + cache), r.err());
    assertTrue(r.err().contains("weaver: Python environment ready"), r.err());
    assertTrue(r.out().contains("check: no errors"), r.out());
    for (String table :
        List.of(
            "Logistics.Depot.Site",
            "Logistics.Parcel.Current",
            "Logistics.Parcel.Event",
            "Logistics.Parcel.StatusCount",
            "Sales.Customer.Account",
            "Sales.Order.Shipment")) {
      assertTrue(
          r.out().matches("(?s).*succeeded\\s+" + table.replace(".", "\\.") + "\\s+\\+[1-9].*"),
          table + " loaded rows:\n" + r.out());
    }
    assertTrue(
        r.out().contains("load: 7 table(s), 0 failed or refused, 1 skipped"),
        "only the Warehouse Table is skipped:\n" + r.out());
    assertTrue(
        r.out().matches("(?s).*succeeded\\s+Logistics\\.Parcel\\.Current\\s+\\+500 .*"), r.out());
    assertTrue(r.err().contains("weaver: load"), "progress goes to stderr");
    assertTrue(r.err().contains("weaver: starting the Python worker"), r.err());
    // Progress, but neither the JVM's incubator notice nor Spark's plan truncation.
    assertFalse(r.err().contains("incubator modules"), r.err());
    assertFalse(r.err().contains("Truncated the string representation"), r.err());

    rerunWritesNothing(clone, env);
    secondDeliveryUpdatesDeletesAndMeetsAGate(clone, env);
    withoutAUsablePythonAPythonTableFailsSayingHowToGetOne(clone, env);
    if (standIn) {
      assertEquals(1, Files.readAllLines(mavenCalls).size(), "a built clone is not built again");
    }
  }

  /**
   * Whether sql-extensions/target holds a bundle jar newer than every pom and main source of {@code
   * root}: bin/weaver's own rule for "nothing to build".
   */
  private static boolean builtIsCurrent(Path root) throws IOException {
    Path target = root.resolve("sql-extensions/target");
    Path jar;
    try (var files = Files.list(target)) {
      jar =
          files
              .filter(p -> p.getFileName().toString().matches("weaver-spark-.*_2\\.13-.*\\.jar"))
              .filter(p -> !p.getFileName().toString().matches(".*-(sources|tests)\\.jar"))
              .findFirst()
              .orElse(null);
    } catch (java.nio.file.NoSuchFileException e) {
      return false;
    }
    if (jar == null || !Files.isRegularFile(target.resolve("weaver-classpath.txt"))) {
      return false;
    }
    var built = Files.getLastModifiedTime(jar);
    List<Path> sources = new java.util.ArrayList<>(List.of(root.resolve("pom.xml")));
    try (var modules = Files.list(root)) {
      for (Path module : modules.filter(Files::isDirectory).toList()) {
        sources.add(module.resolve("pom.xml"));
        sources.add(module.resolve("src/main"));
      }
    }
    // The command line's module, nested in connector's folder.
    sources.add(root.resolve("connector/tools/pom.xml"));
    sources.add(root.resolve("connector/tools/src/main"));
    for (Path source : sources) {
      if (!Files.exists(source)) {
        continue;
      }
      try (var walk = Files.walk(source)) {
        if (walk.anyMatch(
            p -> {
              try {
                return Files.isRegularFile(p) && Files.getLastModifiedTime(p).compareTo(built) > 0;
              } catch (IOException e) {
                return true;
              }
            })) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Puts {@code mvn} in {@code bin}: it appends its working folder and arguments to {@code calls},
   * accepts only bin/weaver's build command, and copies the files of {@code root}'s
   * sql-extensions/target (the bundle jar, weaver-classpath.txt, weaver-tools-classpath.txt,
   * weaver-versions.properties) into the clone's. The classpath files name jars by absolute path,
   * so the clone runs the tools' jar this build made, as it runs this build's Maven dependencies.
   */
  private static void mavenStandIn(Path bin, Path root, Path calls) throws IOException {
    Path mvn = bin.resolve("mvn");
    Files.writeString(
        mvn,
        """
        #!/usr/bin/env bash
        # FreshCloneTest's stand-in for Maven (see the test's Javadoc).
        set -euo pipefail
        echo "$(pwd -P) $*" >> '%s'
        if [ "$*" != "-B -q -DskipTests package -pl sql-extensions -am" ]; then
          echo "mvn stand-in: unexpected arguments: $*" >&2
          exit 2
        fi
        mkdir -p sql-extensions/target
        find '%s' -maxdepth 1 -type f -exec cp {} sql-extensions/target/ \\;
        """
            .formatted(calls, root.resolve("sql-extensions/target")));
    if (!mvn.toFile().setExecutable(true)) {
      throw new IOException("cannot make " + mvn + " executable");
    }
  }

  /** The same files again: nothing is created and nothing is loaded. */
  private static void rerunWritesNothing(Path clone, Map<String, String> env) throws Exception {
    Result again =
        run(
            List.of("bin/weaver", "run", "--workspace", "examples/logistics", "--format", "json"),
            clone,
            env);
    assertEquals(0, again.exit(), again.err());
    String json = again.out().strip();
    assertTrue(json.startsWith("{\"findings\":[],\"tables\":["), json);
    assertTrue(!json.contains("\"action\":\"created\""), "a rerun creates nothing: " + json);
    assertTrue(
        json.contains(
            "\"table_id\":\"Logistics.Depot.Site\",\"status\":\"succeeded\",\"rows_inserted\":0"),
        json);
  }

  /** The README's second step: the sources deliver again and the run shows what changed. */
  private static void secondDeliveryUpdatesDeletesAndMeetsAGate(Path clone, Map<String, String> env)
      throws Exception {
    check(run(List.of("examples/logistics/deliver-second"), clone, env));
    Result third =
        run(List.of("bin/weaver", "run", "--workspace", "examples/logistics"), clone, env);
    assertEquals(1, third.exit(), "a refused load fails the run: " + third.out() + third.err());
    String out = third.out();
    // RTM's capacity changed, MST closed (soft delete), UTR opened.
    assertTrue(out.matches("(?s).*succeeded\\s+Logistics\\.Depot\\.Site\\s+\\+1 ~1 -1 .*"), out);
    // C005 is new, C002 renamed; c006's malformed account number is quarantined, not loaded.
    assertTrue(
        out.matches(
            "(?s).*succeeded\\s+Sales\\.Customer\\.Account\\s+\\+1 ~1 -0 \\^0 =3 !0 \\?1 .*"),
        out);
    assertTrue(out.contains("expectation 'account number format': 1 row(s) quarantined"), out);
    // Only the scan file that arrived since the last load is read.
    assertTrue(out.matches("(?s).*succeeded\\s+Logistics\\.Parcel\\.Event\\s+\\+495 .*"), out);
    // 7 in 10 parcels changed status: more than Parcel.Current's 60 % update threshold.
    assertTrue(
        out.matches("(?s).*refused\\s+Logistics\\.Parcel\\.Current\\s+.*Update percentage.*"), out);
    assertTrue(
        out.matches("(?s).*skipped\\s+Logistics\\.Parcel\\.StatusCount\\s+.*refused.*"), out);
  }

  /**
   * {@code bin/weaver load} of a Python Table whose Python cannot be started: the Table fails with
   * a message that says how to get one, and the call exits 1.
   */
  private static void withoutAUsablePythonAPythonTableFailsSayingHowToGetOne(
      Path clone, Map<String, String> env) throws Exception {
    Map<String, String> noPython = new java.util.HashMap<>(env);
    noPython.put("WEAVER_PYTHON", clone.resolveSibling("no-such-python").toString());
    Result r =
        run(
            List.of(
                "bin/weaver",
                "load",
                "--workspace",
                "examples/logistics",
                "--table",
                "Logistics.Parcel.Current"),
            clone,
            noPython);
    assertEquals(1, r.exit(), r.out() + r.err());
    assertTrue(r.out().matches("(?s).*failed\\s+Logistics\\.Parcel\\.Current .*"), r.out());
    assertTrue(r.out().contains("pip install pyspark=="), r.out());
    assertTrue(r.out().contains("WEAVER_PYTHON"), r.out());
  }

  /** Applies the working tree's changes to tracked files and copies its untracked files. */
  private static void copyUncommittedChanges(Path root, Path clone) throws Exception {
    Path patch = clone.resolveSibling("uncommitted.patch");
    Result diff = run(List.of("git", "diff", "HEAD", "--binary"), root, Map.of());
    check(diff);
    Files.writeString(patch, diff.out(), StandardCharsets.UTF_8);
    if (Files.size(patch) > 0) {
      check(run(List.of("git", "apply", "--whitespace=nowarn", patch.toString()), clone, Map.of()));
    }
    Result untracked =
        run(List.of("git", "ls-files", "--others", "--exclude-standard", "-z"), root, Map.of());
    check(untracked);
    for (String file : untracked.out().split("\0")) {
      if (!file.isEmpty()) {
        Path target = clone.resolve(file);
        Files.createDirectories(target.getParent());
        Files.copy(root.resolve(file), target, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }

  /** pip's cache of this machine: downloads and built wheels are reused, not the environment. */
  private static Path pipCache() {
    String pip = System.getenv("PIP_CACHE_DIR");
    if (pip != null && !pip.isBlank()) {
      return Path.of(pip);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    return (xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache"))
        .resolve("pip");
  }

  record Result(int exit, String out, String err) {}

  private static void check(Result r) {
    assertEquals(0, r.exit(), r.out() + r.err());
  }

  /**
   * Runs {@code command} in {@code cwd} with {@code env} over this JVM's environment, without the
   * variables that would choose a Python or a pyspark version for the child.
   */
  private static Result run(List<String> command, Path cwd, Map<String, String> env)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("fresh-clone-out", ".txt");
    Path err = Files.createTempFile("fresh-clone-err", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(cwd.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    for (String name :
        List.of(
            "WEAVER_PYTHON",
            "PYSPARK_PYTHON",
            "PYSPARK_DRIVER_PYTHON",
            "WEAVER_PYSPARK_VERSION",
            "WEAVER_BASE_PYTHON",
            "VIRTUAL_ENV",
            "PYTHONPATH",
            "PYTHONHOME")) {
      builder.environment().remove(name);
    }
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(15, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish in 15 minutes");
    }
    try {
      return new Result(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
