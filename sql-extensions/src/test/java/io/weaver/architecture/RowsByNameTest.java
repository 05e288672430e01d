package io.weaver.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.expressions.GenericRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Main code of all three jars reads a Spark {@link Row} by field name ({@code getAs(name)}, the
 * catalogue's {@code NamedRow}), never by position: a catalogue table or Delta's history gaining or
 * moving a column must not change what a reader gets. So no call of {@code Row.get…(int)}, {@code
 * Row.apply(int)} or {@code Row.isNullAt(int)} from main code; there are no exceptions. (Catalyst's
 * {@code InternalRow} inside expressions is not a table row and not covered.)
 *
 * <p>Rows are written by name too ({@code CatalogueTable.row()}, {@code CatalogueRowBuilder.of} for
 * a statement's rows, a load's result through {@code LoadResultField}): no {@code
 * RowFactory.create(...)}, {@code new GenericRow…(values…)} or {@code Row.fromSeq/apply(...)},
 * whose values land by position, outside {@link #POSITIONAL_WRITERS}.
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

  /** The main classes that may build a row from positional values, each with its reason. */
  static final Map<String, String> POSITIONAL_WRITERS =
      Map.of(
          "io.weaver.catalogue.CatalogueRowBuilder",
          "the by-name writer itself: it places each value at its column's index in the schema",
          "io.weaver.catalyst.compat.DroppedObservations",
          "an empty row, no columns: the metrics of an observation that never arrived");

  @Test
  void mainCodeWritesSparkRowsByName() {
    noClasses()
        .that(
            DescribedPredicate.<com.tngtech.archunit.core.domain.JavaClass>describe(
                "are not listed in POSITIONAL_WRITERS",
                c -> !POSITIONAL_WRITERS.containsKey(c.getName())))
        .should()
        .accessTargetWhere(positionalRowWrite())
        .because(
            "a Spark row is written by column name (CatalogueTable.row(),"
                + " CatalogueRowBuilder.of, LoadResultField; docs/architecture.md)")
        .check(classes);
  }

  /** Each listed writer still writes positionally (else its entry goes). */
  @Test
  void everyListedWriterStillNeedsItsPlace() {
    for (String name : POSITIONAL_WRITERS.keySet()) {
      if (!classes.contain(name)) {
        continue; // a class of another Spark line's sources, not compiled in this build
      }
      boolean writes =
          classes.get(name).getAccessesFromSelf().stream()
              .anyMatch(a -> positionalRowWrite().test(a));
      org.junit.jupiter.api.Assertions.assertTrue(
          writes, name + " no longer writes a row by position: remove it from POSITIONAL_WRITERS");
    }
  }

  private static DescribedPredicate<JavaAccess<?>> positionalRowWrite() {
    return DescribedPredicate.<JavaAccess<?>>describe(
        "a Spark row built from positional values (RowFactory.create, new GenericRow…,"
            + " Row.fromSeq/apply)",
        access -> {
          var owner = access.getTargetOwner();
          String name = access.getName();
          if (owner.isEquivalentTo(RowFactory.class)) {
            return name.equals("create");
          }
          if (owner.isAssignableTo(GenericRow.class)) {
            return name.equals("<init>");
          }
          return owner.getName().equals("org.apache.spark.sql.Row$")
              && (name.equals("apply") || name.equals("fromSeq") || name.equals("fromTuple"));
        });
  }

  /** The positive control: the write rule sees a positional write where there is one. */
  @Test
  void theRuleSeesAPositionalWrite() {
    JavaClasses control = new ClassFileImporter().importClasses(PositionalWriter.class);
    var failures =
        noClasses()
            .should()
            .accessTargetWhere(positionalRowWrite())
            .evaluate(control)
            .getFailureReport();
    org.junit.jupiter.api.Assertions.assertFalse(failures.isEmpty(), "the rule saw nothing");
    org.junit.jupiter.api.Assertions.assertTrue(
        failures.getDetails().stream().anyMatch(d -> d.contains("RowFactory.create")),
        failures.toString());
  }

  /** A writer the rule must refuse (test code, not imported by the main rule). */
  static final class PositionalWriter {
    static Row write() {
      return RowFactory.create("a", 1);
    }
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
