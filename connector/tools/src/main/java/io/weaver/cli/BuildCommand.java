package io.weaver.cli;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.install.BuildOutcome;
import io.weaver.json.Json;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code weaver build}: creates or updates tables and catalogue; exit 1 on refused or failed. */
final class BuildCommand {
  private BuildCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    return SessionSupport.scoped(args, out, err, (checked, scope) -> build(checked, scope, out));
  }

  private static int build(SessionSupport.Checked checked, Scope scope, PrintStream out) {
    WeaverWorkspace weaver = checked.open();
    List<BuildOutcome> outcomes = weaver.build(scope, checked.args().has("--allow-destructive"));
    print(outcomes, out, checked.json());
    return outcomes.stream().anyMatch(BuildOutcome::isFailure) ? WeaverCli.FAILED : WeaverCli.OK;
  }

  static void print(List<BuildOutcome> outcomes, PrintStream out, boolean json) {
    if (json) {
      out.println(
          Json.write(Map.of("tables", outcomes.stream().map(BuildCommand::toJson).toList())));
      return;
    }
    for (BuildOutcome o : outcomes) {
      out.printf("%-10s %-40s %s%n", o.action(), o.tableId(), o.message());
    }
    long failed = outcomes.stream().filter(BuildOutcome::isFailure).count();
    out.println("build: " + outcomes.size() + " table(s), " + failed + " refused or failed");
  }

  static Map<String, Object> toJson(BuildOutcome o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table_id", o.tableId());
    m.put("action", o.action());
    m.put("message", o.message());
    return m;
  }
}
