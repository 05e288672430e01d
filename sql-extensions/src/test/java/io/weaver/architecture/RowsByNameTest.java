package io.weaver.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Main code of all three jars reads a Spark {@link Row} by field name ({@code getAs(name)}, the
 * catalogue's {@code NamedRow}), never by position: a catalogue table or Delta's history gaining or
 * moving a column must not change what a reader gets. So no call of {@code Row.get…(int)}, {@code
 * Row.apply(int)} or {@code Row.isNullAt(int)} from main code; there are no exceptions. (Catalyst's
 * {@code InternalRow} inside expressions is not a table row and not covered.)
 */
class RowsByNameTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    // Main classes only: the connector's test jar is on this module's test classpath too.
    classes = MainClasses.get();
  }

  @Test
  void mainCodeReadsSparkRowsByName() {
    noClasses()
        .should()
        .callMethodWhere(positionalRowRead())
        .because("a Spark row is read by field name (docs/architecture.md, \"How rooms talk\")")
        .check(classes);
  }

  private static DescribedPredicate<JavaMethodCall> positionalRowRead() {
    return DescribedPredicate.describe(
        "a read of an org.apache.spark.sql.Row by position (get…(int), apply(int), isNullAt(int))",
        call -> {
          String name = call.getTarget().getName();
          boolean read = name.startsWith("get") || name.equals("apply") || name.equals("isNullAt");
          return read
              && call.getTarget().getOwner().isAssignableTo(Row.class)
              && call.getTarget().getRawParameterTypes().size() == 1
              && call.getTarget().getRawParameterTypes().get(0).isEquivalentTo(int.class);
        });
  }

  /** The positive control: the predicate sees a positional read where there is one. */
  @Test
  void theRuleSeesAPositionalRead() {
    JavaClasses control = new ClassFileImporter().importClasses(PositionalReader.class);
    var failures =
        noClasses()
            .should()
            .callMethodWhere(positionalRowRead())
            .evaluate(control)
            .getFailureReport();
    org.junit.jupiter.api.Assertions.assertFalse(failures.isEmpty(), "the rule saw nothing");
    org.junit.jupiter.api.Assertions.assertTrue(
        failures.getDetails().stream().anyMatch(d -> d.contains("getString")), failures.toString());
  }

  /** A reader the rule must refuse (test code, not imported by the main rule). */
  static final class PositionalReader {
    static List<String> read(Row row) {
      return List.of(row.getString(0));
    }
  }
}
