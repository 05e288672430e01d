package io.weaver.cli;

import io.weaver.api.WeaverWorkspace;
import io.weaver.build.BuildOutcome;
import io.weaver.json.Json;
import io.weaver.load.LoadResult;
import io.weaver.metadata.WorkspaceModel;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code weaver run}: the whole job in one session — check, build, then load the Tables that built.
 * Tables whose build was refused or failed are not loaded.
 */
final class RunCommand {
  private RunCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    SessionSupport support = new SessionSupport(args, err);
    boolean json = args.json();
    var scope = support.scope();
    Optional<WorkspaceModel> model = support.checkedModel(out, json);
    if (model.isEmpty()) {
      return WeaverCli.FAILED;
    }
    if (!json) {
      out.println("check: no errors");
    }
    WeaverWorkspace weaver = support.open(model.get());
    List<BuildOutcome> built = weaver.build(scope, args.has("--allow-destructive"));
    List<String> unbuilt =
        built.stream().filter(BuildOutcome::isFailure).map(BuildOutcome::tableId).toList();
    var loadScope = scope.filter().and(t -> !unbuilt.contains(t.qualifiedName()));
    List<LoadResult> loaded;
    try (SessionSupport.Attached python = support.attachPython(weaver, model.get(), loadScope)) {
      loaded = weaver.runner(model.get()).load(loadScope, args.has("--waive-stability-gates"));
    }
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("findings", List.of());
      doc.put(
          "tables",
          built.stream()
              .map(
                  o ->
                      Map.of("table_id", o.tableId(), "action", o.action(), "message", o.message()))
              .toList());
      doc.put("loads", loaded.stream().map(LoadResult::toMap).toList());
      out.println(Json.write(doc));
    } else {
      BuildCommand.print(built, out, false);
      LoadCommand.print(loaded, out, false);
    }
    boolean failed = !unbuilt.isEmpty() || loaded.stream().anyMatch(LoadResult::isFailure);
    return failed ? WeaverCli.FAILED : WeaverCli.OK;
  }
}
