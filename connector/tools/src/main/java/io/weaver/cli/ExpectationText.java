package io.weaver.cli;

import io.weaver.load.expectations.ExpectationCount;

/** One line of the command line's text output for an expectation that rows violate. */
final class ExpectationText {
  private ExpectationText() {}

  static String line(ExpectationCount e) {
    String what =
        switch (e.action()) {
          case "quarantine" -> " row(s) quarantined (kept in _.LoadQuarantine, not loaded)";
          case "warn" -> " row(s) loaded with a warning";
          default -> " row(s) violate it";
        };
    return "expectation '"
        + e.expectation()
        + "': "
        + e.rowsViolating()
        + what
        + (e.sampleKeys().isEmpty() ? "" : "; sample keys " + e.sampleKeys());
  }
}
