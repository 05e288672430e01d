package io.weaver.cli;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.json.Json;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code weaver load}: loads tables; one line per table and a summary; exit 1 on failed/refused.
 */
final class LoadCommand {
  private LoadCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    return SessionSupport.scoped(args, out, err, (checked, scope) -> load(checked, scope, out));
  }

  private static int load(SessionSupport.Checked checked, Scope scope, PrintStream out) {
    WeaverWorkspace weaver = checked.open();
    List<LoadResult> results;
    try (SessionSupport.Attached python = checked.attachPython(weaver, scope.filter())) {
      results = weaver.load(scope, checked.args().has("--waive-stability-gates"));
    }
    print(results, out, checked.json());
    return results.stream().anyMatch(LoadResult::isFailure) ? WeaverCli.FAILED : WeaverCli.OK;
  }

  /**
   * A load's JSON row; one that did not succeed also carries its error: {@code errorClass}, {@code
   * sqlState} and {@code parameters} (its {@code message} is the row's own).
   */
  static Map<String, Object> toJson(LoadResult r) {
    Map<String, Object> row = new LinkedHashMap<>(r.toMap());
    FailureDocument.of(r)
        .ifPresent(
            error -> {
              row.put("errorClass", error.get("errorClass"));
              row.put("sqlState", error.get("sqlState"));
              row.put("parameters", error.get("parameters"));
            });
    return row;
  }

  /**
   * {@code doc} with the error of the first load that did not succeed, if any, as the document's
   * own {@code errorClass}, {@code sqlState}, {@code parameters} and {@code message}.
   */
  static Map<String, Object> withFirstFailure(Map<String, Object> doc, List<LoadResult> results) {
    results.stream()
        .map(FailureDocument::of)
        .flatMap(java.util.Optional::stream)
        .findFirst()
        .ifPresent(doc::putAll);
    return doc;
  }

  /** Stale rows, which the count columns do not show: they change nothing. */
  static String staleLine(long rows) {
    return "stale: "
        + rows
        + " staging row(s) not applied, older than their key's row (Sequence column)";
  }

  static void print(List<LoadResult> results, PrintStream out, boolean json) {
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("loads", results.stream().map(LoadCommand::toJson).toList());
      out.println(Json.write(withFirstFailure(doc, results)));
      return;
    }
    for (LoadResult r : results) {
      out.printf(
          "%-10s %-36s +%d ~%d -%d ^%d =%d !%d ?%d live %d->%d v%d %dms %s%n",
          r.status(),
          r.tableId(),
          r.rowsInserted(),
          r.rowsUpdated(),
          r.rowsDeleted(),
          r.rowsRevived(),
          r.rowsUnchanged(),
          r.rowsRejected(),
          r.rowsQuarantined(),
          r.targetLiveRowsBefore(),
          r.targetLiveRowsAfter(),
          r.deltaVersion(),
          r.durationMs(),
          r.message() == null ? "" : r.message());
      if (r.rowsStale() > 0) {
        out.println("           " + staleLine(r.rowsStale()));
      }
      r.expectations().stream()
          .filter(e -> e.rowsViolating() > 0)
          .forEach(e -> out.println("           " + ExpectationText.line(e)));
      r.warnings().forEach(w -> out.println("           warning: " + w));
    }
    long failed = results.stream().filter(LoadResult::isFailure).count();
    long skipped = results.stream().filter(r -> r.status() == LoadStatus.SKIPPED).count();
    out.println(
        "load: "
            + results.size()
            + " table(s), "
            + failed
            + " failed or refused, "
            + skipped
            + " skipped"
            + " (+inserted ~updated -deleted ^revived =unchanged !rejected ?quarantined)");
  }
}
