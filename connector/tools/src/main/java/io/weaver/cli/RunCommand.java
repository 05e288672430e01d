package io.weaver.cli;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.install.BuildOutcome;
import io.weaver.json.Json;
import io.weaver.load.records.LoadResult;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code weaver run}: the whole job in one session — check, build, then load the Tables that built.
 * Tables whose build was refused or failed are not loaded.
 */
final class RunCommand {
  private RunCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    return SessionSupport.scoped(args, out, err, (checked, scope) -> run(checked, scope, out));
  }

  private static int run(SessionSupport.Checked checked, Scope scope, PrintStream out) {
    CliArgs args = checked.args();
    boolean json = checked.json();
    if (!json) {
      out.println("check: no errors");
    }
    WeaverWorkspace weaver = checked.open();
    List<BuildOutcome> built = weaver.build(scope, args.has("--allow-destructive"));
    List<String> unbuilt =
        built.stream().filter(BuildOutcome::isFailure).map(BuildOutcome::tableId).toList();
    var loadScope = scope.filter().and(t -> !unbuilt.contains(t.qualifiedName()));
    List<LoadResult> loaded;
    try (SessionSupport.Attached python = checked.attachPython(weaver, loadScope)) {
      loaded = weaver.runner(checked.model()).load(loadScope, args.has("--waive-stability-gates"));
    }
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("findings", List.of());
      doc.put("tables", built.stream().map(BuildCommand::toJson).toList());
      doc.put("loads", loaded.stream().map(LoadCommand::toJson).toList());
      out.println(Json.write(LoadCommand.withFirstFailure(doc, loaded)));
    } else {
      BuildCommand.print(built, out, false);
      LoadCommand.print(loaded, out, false);
    }
    boolean failed = !unbuilt.isEmpty() || loaded.stream().anyMatch(LoadResult::isFailure);
    return failed ? WeaverCli.FAILED : WeaverCli.OK;
  }
}
