package io.weaver.cli;

import io.weaver.api.WeaverWorkspace;
import io.weaver.build.BuildOutcome;
import io.weaver.json.Json;
import io.weaver.metadata.WorkspaceModel;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code weaver build}: creates or updates tables and catalogue; exit 1 on refused or failed. */
final class BuildCommand {
  private BuildCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    SessionSupport support = new SessionSupport(args, err);
    boolean json = args.json();
    var scope = support.scope();
    Optional<WorkspaceModel> model = support.checkedModel(out, json);
    if (model.isEmpty()) {
      return WeaverCli.FAILED;
    }
    WeaverWorkspace weaver = support.open(model.get());
    List<BuildOutcome> outcomes = weaver.build(scope, args.has("--allow-destructive"));
    print(outcomes, out, json);
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

  private static Map<String, Object> toJson(BuildOutcome o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table_id", o.tableId());
    m.put("action", o.action());
    m.put("message", o.message());
    return m;
  }
}
