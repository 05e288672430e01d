package io.weaver.cli;

import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.check.Check;
import io.weaver.check.CheckReport;
import io.weaver.check.WeaverCheckException;
import io.weaver.findings.Finding;
import io.weaver.findings.Severity;
import io.weaver.json.Json;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code weaver check}: prints findings as text or JSON; exit 1 when any is an error. */
final class CheckCommand {
  private CheckCommand() {}

  static int run(CliArgs args, PrintStream out) {
    boolean json = args.json();
    CheckReport report = Check.run(args.workspace());
    if (json) {
      out.println(report.hasErrors() ? failed(report, summary(report)) : document(report));
    } else {
      report.findings().forEach(f -> out.println(f.toText()));
      out.println(summary(report));
    }
    return report.hasErrors() ? WeaverCli.FAILED : WeaverCli.OK;
  }

  /** The last line of the text output: how many errors and warnings. */
  private static String summary(CheckReport report) {
    long errors = report.findings().stream().filter(f -> f.severity() == Severity.ERROR).count();
    long warnings = report.findings().size() - errors;
    return errors == 0 && warnings == 0
        ? "check: no findings"
        : "check: " + errors + " error(s), " + warnings + " warning(s)";
  }

  /** What stderr says when Check stops another command. */
  static final String REFUSAL =
      "Check found errors; fix them before building or loading (weaver check)";

  /**
   * The JSON document of a report that stops another command: the findings and the error, {@code
   * "errorClass": "WEAVER_CHECK_FAILED"}.
   */
  static String refusal(CheckReport report) {
    return failed(report, REFUSAL);
  }

  /** The findings of a report with errors, and the error of class {@code WEAVER_CHECK_FAILED}. */
  private static String failed(CheckReport report, String message) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("findings", report.findings().stream().map(Finding::toMap).toList());
    doc.putAll(
        FailureDocument.of(
            WeaverErrorClass.WEAVER_CHECK_FAILED, message, WeaverCheckException.factsOf(report)));
    return Json.write(doc);
  }

  /** The JSON document of a report: {@code {"findings": [...]}}. */
  static String document(CheckReport report) {
    return Json.write(Map.of("findings", report.findings().stream().map(Finding::toMap).toList()));
  }
}
