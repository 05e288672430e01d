package io.weaver.cli;

import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.check.Check;
import io.weaver.check.CheckReport;
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
      out.println(document(report));
    } else {
      report.findings().forEach(f -> out.println(f.toText()));
      long errors = report.findings().stream().filter(f -> f.severity() == Severity.ERROR).count();
      long warnings = report.findings().size() - errors;
      out.println(
          errors == 0 && warnings == 0
              ? "check: no findings"
              : "check: " + errors + " error(s), " + warnings + " warning(s)");
    }
    return report.hasErrors() ? WeaverCli.FAILED : WeaverCli.OK;
  }

  /**
   * The JSON document of a report that stops another command: the findings and {@code "errorClass":
   * "WEAVER_CHECK_FAILED"}.
   */
  static String refusal(CheckReport report) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("findings", report.findings().stream().map(Finding::toMap).toList());
    doc.put("errorClass", WeaverErrorClass.WEAVER_CHECK_FAILED.name());
    return Json.write(doc);
  }

  /** The JSON document of a report: {@code {"findings": [...]}}. */
  static String document(CheckReport report) {
    return Json.write(Map.of("findings", report.findings().stream().map(Finding::toMap).toList()));
  }
}
