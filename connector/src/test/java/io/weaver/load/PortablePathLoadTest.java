package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.weaver.catalyst.delta.DeltaInternals;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The load cases CI runs a second time on the portable path ({@value DeltaInternals#LOADS_PROPERTY}
 * {@code =portable}: the Delta log read through Delta's public API, loads always MERGE, as where
 * open-source Delta's internals are absent): the retries by load id, the commit race with OPTIMIZE
 * and the recovery of a load stopped after its commit (docs/reliability.md, "The load matrix").
 *
 * <p>They run here, in the default execution's test JVMs, rather than in JVMs of their own: a cold
 * JVM's first Spark work (compiling Spark's and Delta's code) cost more than the cases themselves —
 * 241 s of test time in two new JVMs against 103.7 s for the same cases warm. The property is a JVM
 * one, read at each load, and surefire runs one class at a time in each JVM, so it reaches only the
 * cases below; it is set back as it was when they are done. The long mode's {@code
 * portable-delta-loads} execution (connector/pom.xml) runs every fault case on this path.
 */
class PortablePathLoadTest {
  private static String before;

  @BeforeAll
  static void portablePath() {
    before = System.setProperty(DeltaInternals.LOADS_PROPERTY, "portable");
  }

  @AfterAll
  static void pathAsBefore() {
    if (before == null) {
      System.clearProperty(DeltaInternals.LOADS_PROPERTY);
    } else {
      System.setProperty(DeltaInternals.LOADS_PROPERTY, before);
    }
  }

  @BeforeEach
  void loadsTakeThePortablePath() {
    assertFalse(DeltaInternals.forLoads(), "loads here read the Delta log through the public API");
  }

  @Nested
  class RetriesByLoadId extends LoadIdRetryTest {}

  @Nested
  @Only("loadWhileOptimizeRunsIsCorrectOrRetriable")
  class CommitRaceWithOptimize extends ConcurrentLoadTest {}

  @Nested
  @Only("stopAfterTheCommitIsRecoveredNotReapplied")
  class RecoveryAfterTheCommit extends LoadFaultTest {}

  /** Runs only the named test methods of the annotated class; its other cases are skipped. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  @ExtendWith(OnlyCondition.class)
  @interface Only {
    String[] value();
  }

  static final class OnlyCondition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      Only only = context.getRequiredTestClass().getAnnotation(Only.class);
      if (only == null || context.getTestMethod().isEmpty()) {
        return ConditionEvaluationResult.enabled("not a selected class's test method");
      }
      String name = context.getRequiredTestMethod().getName();
      return Arrays.asList(only.value()).contains(name)
          ? ConditionEvaluationResult.enabled(name + " runs on the portable path")
          : ConditionEvaluationResult.disabled(
              name + " runs on the portable path in the long mode only (-Plong)");
    }
  }
}
