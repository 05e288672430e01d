package io.weaver.check;

/** Thrown when work needs a valid workspace and Check found errors; carries the report. */
public final class WeaverCheckException extends RuntimeException {
  private final transient CheckReport report;

  public WeaverCheckException(String message, CheckReport report) {
    super(message);
    this.report = report;
  }

  public CheckReport report() {
    return report;
  }
}
