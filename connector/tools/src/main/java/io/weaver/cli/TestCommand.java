package io.weaver.cli;

import io.weaver.api.Scope;
import io.weaver.datatest.DataTestResult;
import io.weaver.json.Json;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * {@code weaver test}: runs generated and authored tests; one line per test and a summary; exit 1
 * when a test of severity error failed (failed warnings alone exit 0).
 */
final class TestCommand {
  private TestCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    return SessionSupport.scoped(args, out, err, (checked, scope) -> test(checked, scope, out));
  }

  private static int test(SessionSupport.Checked checked, Scope scope, PrintStream out) {
    List<DataTestResult> results = checked.open().test(scope);
    print(results, out, checked.json());
    return results.stream().anyMatch(DataTestResult::isErrorFailure)
        ? WeaverCli.FAILED
        : WeaverCli.OK;
  }

  static void print(List<DataTestResult> results, PrintStream out, boolean json) {
    if (json) {
      out.println(
          Json.write(Map.of("tests", results.stream().map(DataTestResult::toMap).toList())));
      return;
    }
    for (DataTestResult r : results) {
      out.printf(
          "%-6s %-7s %-44s %d violation(s)%s%n",
          r.status(),
          r.severity(),
          r.testId(),
          r.violations(),
          r.message() == null ? "" : " " + r.message());
      r.sample().forEach(row -> out.println("       sample: " + Json.write(row)));
    }
    long failed = results.stream().filter(DataTestResult::failed).count();
    long errors = results.stream().filter(DataTestResult::isErrorFailure).count();
    out.println(
        "test: "
            + results.size()
            + " test(s), "
            + (results.size() - failed)
            + " passed, "
            + failed
            + " failed ("
            + errors
            + " error, "
            + (failed - errors)
            + " warning)");
  }
}
