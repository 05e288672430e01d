package io.weaver.findings;

import java.util.ArrayList;
import java.util.List;

/** Collects the findings of one source file. */
public final class FindingSink {
  private final String path;
  private final List<Finding> findings = new ArrayList<>();

  public FindingSink(String path) {
    this.path = path;
  }

  public String path() {
    return path;
  }

  public void error(String rule, SourcePos pos, String message) {
    add(Severity.ERROR, rule, pos, message);
  }

  public void warning(String rule, SourcePos pos, String message) {
    add(Severity.WARNING, rule, pos, message);
  }

  public void add(Severity severity, String rule, SourcePos pos, String message) {
    findings.add(new Finding(path, pos.line(), pos.column(), severity, rule, message));
  }

  public List<Finding> findings() {
    return List.copyOf(findings);
  }

  public boolean hasErrors() {
    return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
  }
}
