package io.weaver.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package layers of docs/architecture.md, checked on the compiled classes of all four jars
 * (catalyst-rules, connector, the tools of connector/tools, sql-extensions): a package may use
 * packages of its own layer and of the layers below it, never one above, and no two packages depend
 * on each other.
 */
class LayersTest {
  /** Bottom first, in the order data flows; one entry per top-level package under io.weaver. */
  static final List<String> LAYERS =
      List.of(
          "catalyst", // Catalyst expressions and rules (module catalyst-rules)
          "findings", // what Check and the readers report: rule id, place, severity
          "json", // the one JSON writer and reader, Spark rows as plain values
          "workspace", // files and identifiers of a workspace
          "compat", // Spark's SQL parser, used without a session
          "metadata", // headers, keys, bodies, the dependency graph
          "check", // the rules
          "session", // Weaver's settings and the engine's read scope in a Spark session
          "lakehouse", // where tables live; items as Spark catalogs
          "catalogue", // the `_` catalogue tables
          "staging", // a Table's program run into a staging DataFrame
          "install", // structure: shape, DDL, change classification, catalogue rows
          "load", // the keyed merge, gates, history (its rooms: LOAD_ROOMS)
          "warehouse", // the T-SQL target: generated DDL and load procedures, run over JDBC
          "datatest", // key, not-null, foreign-key and authored tests
          "plan", // what build and load would do, nothing written
          "site", // the static documentation site (weaver docs; module connector/tools)
          "python", // the bridge to a Python runtime (Python Tables)
          "embedded", // the local Spark session with a folder as the lakehouse
          "api", // WeaverWorkspace: the one entry point of every interface
          "cli", // bin/weaver (module connector/tools)
          "sql"); // session extension: parser, statements, DataFrame source (module sql-extensions)

  /**
   * The rooms of a load, bottom first: each a sub-package of {@code io.weaver.load} with one
   * feature. The engine ({@code io.weaver.load} itself: attempt, runner, the kind of load, pass 0
   * and the gates) sits above all of them and calls them; a room uses the rooms below it, never one
   * above and never the engine, so a room can be read, tested and changed without the engine.
   */
  static final List<String> LOAD_ROOMS =
      List.of(
          "spec", // what a load is asked and the words of its answer: spec, status, trace, ids
          "expectations", // validation and expectations tested on every staging row
          "diff", // each row classified against the target, counted as one ChangeCounts
          "records", // request, outcome, receipt and the catalogue rows a load leaves
          "write", // how a load ends: plan, MERGE or direct commit
          "recovery", // a commit without its history row; a load id already in history
          "publish", // an item's publish around a load call
          "history", // the versions of a Table with History: true
          "restore"); // a Table or an item back to an earlier load or publish

  private static final String ENGINE = "io.weaver.load";

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = MainClasses.get();
  }

  @Test
  void everyPackageHasALayer() {
    Set<String> unplaced = new TreeSet<>();
    for (JavaClass c : classes) {
      if (c.getPackageName().equals("io.weaver")) {
        continue; // Version: a constant anything may read
      }
      String top = topPackage(c);
      if (!LAYERS.contains(top)) {
        unplaced.add(top);
      }
    }
    assertEquals(Set.of(), unplaced, "packages missing from LAYERS (and docs/architecture.md)");
    assertTrue(classes.size() > 200, "the four modules' classes are imported: " + classes.size());
    for (String tool : TOOLS) {
      assertTrue(
          classes.stream().anyMatch(c -> c.getPackageName().startsWith(tool)),
          "the tools' classes (connector/tools, a test dependency) are imported: " + tool);
    }
  }

  /** The packages of connector/tools: what bin/weaver runs next to the bundle, never in it. */
  static final List<String> TOOLS = List.of("io.weaver.cli", "io.weaver.site");

  /**
   * The engine (every other package) never uses the tools: they are not in the bundle, so a use
   * would fail in a user's Spark application. The module boundary already refuses it for main code
   * (connector and sql-extensions do not compile against the tools); this says why.
   */
  @Test
  void onlyTheToolsUseTheTools() {
    String[] tools = TOOLS.stream().map(p -> p + "..").toArray(String[]::new);
    noClasses()
        .that()
        .resideOutsideOfPackages(tools)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(tools)
        .because("the command line and the docs site are not in the bundle users ship")
        .check(classes);
  }

  @Test
  void noPackageUsesALayerAboveIt() {
    for (int i = 0; i < LAYERS.size() - 1; i++) {
      List<String> above = new ArrayList<>();
      for (String layer : LAYERS.subList(i + 1, LAYERS.size())) {
        above.add("io.weaver." + layer + "..");
      }
      noClasses()
          .that()
          .resideInAPackage("io.weaver." + LAYERS.get(i) + "..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(above.toArray(String[]::new))
          .because(
              LAYERS.get(i)
                  + " sits below "
                  + String.join(", ", LAYERS.subList(i + 1, LAYERS.size())))
          .check(classes);
    }
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.weaver.(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void subPackagesAreFreeOfCycles() {
    slices().matching("io.weaver.*.(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void everyLoadPackageIsTheEngineOrARoom() {
    Set<String> unplaced = new TreeSet<>();
    for (JavaClass c : classes) {
      String p = c.getPackageName();
      if (p.startsWith(ENGINE + ".") && !LOAD_ROOMS.contains(loadRoom(p))) {
        unplaced.add(p);
      }
    }
    assertEquals(Set.of(), unplaced, "load packages missing from LOAD_ROOMS");
  }

  @Test
  void noLoadRoomUsesTheEngine() {
    noClasses()
        .that()
        .resideInAnyPackage(rooms(LOAD_ROOMS))
        .should()
        .dependOnClassesThat()
        .resideInAPackage(ENGINE)
        .because("the engine calls the rooms; a room reaches it only through interfaces it owns")
        .check(classes);
  }

  @Test
  void noLoadRoomUsesARoomAboveIt() {
    for (int i = 0; i < LOAD_ROOMS.size() - 1; i++) {
      List<String> above = LOAD_ROOMS.subList(i + 1, LOAD_ROOMS.size());
      noClasses()
          .that()
          .resideInAPackage(ENGINE + "." + LOAD_ROOMS.get(i) + "..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(rooms(above))
          .because(LOAD_ROOMS.get(i) + " sits below " + String.join(", ", above))
          .check(classes);
    }
  }

  @Test
  void loadRoomsAreFreeOfCycles() {
    slices().matching(ENGINE + ".(*)..").should().beFreeOfCycles().check(classes);
  }

  private static String[] rooms(List<String> names) {
    return names.stream().map(r -> ENGINE + "." + r + "..").toArray(String[]::new);
  }

  private static String loadRoom(String packageName) {
    String rest = packageName.substring(ENGINE.length() + 1);
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }

  /**
   * Delta's internal classes: anything from Delta's jars (some live in Spark's package names, such
   * as {@code org.apache.spark.sql.catalyst.plans.logical.DeltaMergeInto}) or in {@code
   * org.apache.spark.sql.delta}, except Delta's public API ({@code io.delta.tables}, {@code
   * io.delta.exceptions}).
   */
  static final DescribedPredicate<JavaClass> DELTA_INTERNAL =
      new DescribedPredicate<>("Delta-internal classes") {
        @Override
        public boolean test(JavaClass c) {
          String name = c.getName();
          if (name.startsWith("io.delta.tables.") || name.startsWith("io.delta.exceptions.")) {
            return false;
          }
          boolean fromDeltaJar =
              c.getSource()
                  .map(source -> source.getUri().toString())
                  .map(uri -> uri.contains("/delta-spark_") || uri.contains("/delta-storage"))
                  .orElse(false);
          return fromDeltaJar || name.startsWith("org.apache.spark.sql.delta.");
        }
      };

  /** The Delta adapter (docs/environments.md): the only package that may use Delta's internals. */
  static final String DELTA_ADAPTER = "io.weaver.catalyst.delta..";

  @Test
  void deltaInternalsStayInTheAdapter() {
    noClasses()
        .that()
        .resideOutsideOfPackage(DELTA_ADAPTER)
        .should()
        .dependOnClassesThat(DELTA_INTERNAL)
        .because("Delta's internal classes differ between runtimes; only the adapter names them")
        .check(classes);
    // The predicate sees what it should: the adapter itself does use Delta's internals.
    long adapterUses =
        classes.stream()
            .filter(c -> c.getPackageName().startsWith("io.weaver.catalyst.delta"))
            .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
            .filter(d -> DELTA_INTERNAL.test(d.getTargetClass()))
            .count();
    assertTrue(adapterUses > 10, "adapter dependencies on Delta internals: " + adapterUses);
  }

  private static String topPackage(JavaClass c) {
    String rest = c.getPackageName().substring("io.weaver.".length());
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }
}
