package io.weaver.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The compiled main classes of the four jars (catalyst-rules, connector, the tools of
 * connector/tools and sql-extensions), without any test class: neither this module's nor those of
 * the connector's test jar, which the tests' classpath holds as {@code target/test-classes} in a
 * reactor build and as {@code *-tests.jar} once packaged. The tools are a test dependency of this
 * module for this reason (they are never bundled).
 */
final class MainClasses {
  private static JavaClasses classes;

  private MainClasses() {}

  static synchronized JavaClasses get() {
    if (classes == null) {
      classes =
          new ClassFileImporter()
              .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
              .withImportOption(location -> !location.contains("-tests.jar"))
              .importPackages("io.weaver");
    }
    return classes;
  }
}
