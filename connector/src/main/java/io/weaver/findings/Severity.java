package io.weaver.findings;

/** How serious a finding is: errors stop Build and Load, warnings do not. */
public enum Severity {
  ERROR,
  WARNING;

  /** The lowercase word used in text and JSON output. */
  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
