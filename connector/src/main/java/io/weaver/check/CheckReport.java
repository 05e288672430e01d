package io.weaver.check;

import io.weaver.findings.Finding;
import io.weaver.findings.Severity;
import java.util.List;

/** The outcome of one Check run: every finding, in report order. */
public record CheckReport(List<Finding> findings) {

  public CheckReport {
    findings = findings.stream().sorted(Finding.ORDER).toList();
  }

  /** True when at least one finding is an error (Build and Load refuse to run). */
  public boolean hasErrors() {
    return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
  }
}
