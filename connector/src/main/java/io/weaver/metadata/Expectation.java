package io.weaver.metadata;

import io.weaver.findings.SourcePos;
import java.util.Locale;
import java.util.Optional;

/**
 * One row expectation of a Table (docs/table-contract.md, "Expectations"): a named boolean rule
 * over the business columns and what a staging row that violates it does. A row violates the rule
 * when the rule is false <em>or null</em>.
 *
 * @param name the expectation's name as authored (unique in any case within the Table)
 * @param rule the boolean expression, in the target's SQL dialect
 * @param action what a violating row does
 * @param maxPercentage for {@link Action#QUARANTINE} only: above this share of staging rows the
 *     load fails instead
 * @param pos where the name was written
 * @param rulePos where the rule was written
 */
public record Expectation(
    String name,
    String rule,
    Action action,
    Optional<Double> maxPercentage,
    SourcePos pos,
    SourcePos rulePos) {

  /** What a violation does. */
  public enum Action {
    /** The row is loaded; its violation is counted and sampled. */
    WARN,
    /** The row is not loaded and is kept in {@code _.LoadQuarantine}. */
    QUARANTINE,
    /** Any violating row fails the load; nothing is written. */
    FAIL;

    /** The word authors write ({@code warn}, {@code quarantine}, {@code fail}). */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Action> of(String word) {
      for (Action a : values()) {
        if (a.word().equals(word)) {
          return Optional.of(a);
        }
      }
      return Optional.empty();
    }
  }
}
