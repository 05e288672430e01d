package io.weaver.check;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.catalyst.compat.WeaverThrowable;
import io.weaver.findings.Finding;
import io.weaver.findings.Severity;
import java.util.Map;
import java.util.Optional;

/**
 * Thrown when work needs a valid workspace and Check found errors; carries the report. Its error
 * class is {@code WEAVER_CHECK_FAILED}.
 */
public final class WeaverCheckException extends RuntimeException implements WeaverThrowable {
  private final transient CheckReport report;
  private final Map<ErrorParameter, String> facts;

  public WeaverCheckException(String message, CheckReport report) {
    super(message);
    this.report = report;
    this.facts = factsOf(report);
  }

  @Override
  public WeaverErrorClass errorClass() {
    return WeaverErrorClass.WEAVER_CHECK_FAILED;
  }

  /** How many errors, and the file and line of the first (the report's order). */
  @Override
  public Map<ErrorParameter, String> facts() {
    return facts;
  }

  public CheckReport report() {
    return report;
  }

  /** The facts of a {@code WEAVER_CHECK_FAILED} error about {@code report}. */
  public static Map<ErrorParameter, String> factsOf(CheckReport report) {
    long errors = report.findings().stream().filter(f -> f.severity() == Severity.ERROR).count();
    Optional<Finding> first =
        report.findings().stream().filter(f -> f.severity() == Severity.ERROR).findFirst();
    return ErrorFacts.of(
        ErrorParameter.ERRORS,
        errors,
        ErrorParameter.FILE,
        first.map(Finding::path).orElse(""),
        ErrorParameter.LINE,
        first.map(f -> String.valueOf(f.line())).orElse(""));
  }
}
