package io.weaver.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package layers of docs/architecture.md, checked on the compiled classes of all three jars
 * (catalyst-rules, connector, sql-extensions): a package may use packages of its own layer and of
 * the layers below it, never one above, and no two packages depend on each other.
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
          "build", // structure
          "load", // the keyed merge, gates, history
          "datatest", // key, not-null, foreign-key and authored tests
          "python", // the bridge to a Python runtime (Python Tables)
          "embedded", // the local Spark session with a folder as the lakehouse
          "api", // WeaverWorkspace: the one entry point of every interface
          "cli", // bin/weaver
          "sql"); // session extension: parser, statements, DataFrame source (module sql-extensions)

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.weaver");
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
    assertTrue(classes.size() > 200, "the three modules' classes are imported: " + classes.size());
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

  private static String topPackage(JavaClass c) {
    String rest = c.getPackageName().substring("io.weaver.".length());
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }
}
