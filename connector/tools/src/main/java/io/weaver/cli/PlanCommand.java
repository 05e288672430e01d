package io.weaver.cli;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.json.Json;
import io.weaver.load.LoadPlan;
import io.weaver.load.spec.GateVerdict;
import io.weaver.load.spec.LoadStatus;
import io.weaver.plan.TablePlan;
import io.weaver.workspace.TableId;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code weaver plan}: what {@code weaver run} would do, per Table in load order, writing nothing
 * (docs/plan.md). Exit 1 when a Table would be refused or fail, so CI can gate on it.
 */
final class PlanCommand {
  private static final String RESET = "\u001b[0m";
  private static final String GREEN = "\u001b[32m";
  private static final String YELLOW = "\u001b[33m";
  private static final String RED = "\u001b[31m";

  private PlanCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    return SessionSupport.scoped(args, out, err, (checked, scope) -> plan(checked, scope, out));
  }

  private static int plan(SessionSupport.Checked checked, Scope scope, PrintStream out) {
    WeaverWorkspace weaver = checked.open();
    List<TablePlan> plans;
    try (SessionSupport.Attached python = checked.attachPython(weaver, scope.filter())) {
      plans =
          weaver.plan(
              scope,
              checked.args().has("--allow-destructive"),
              checked.args().has("--waive-stability-gates"));
    }
    if (checked.json()) {
      out.println(Json.write(document(plans)));
    } else {
      // Colour only when stdout is a terminal a person reads.
      print(plans, out, checked.args().terminal().stdout());
    }
    return plans.stream().anyMatch(TablePlan::isFailure) ? WeaverCli.FAILED : WeaverCli.OK;
  }

  static Map<String, Object> document(List<TablePlan> plans) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("tables", plans.stream().map(TablePlan::toMap).toList());
    doc.put("would_fail", plans.stream().filter(TablePlan::isFailure).count());
    doc.put("written", false);
    return doc;
  }

  static void print(List<TablePlan> plans, PrintStream out, boolean colour) {
    int width = Math.max(5, plans.stream().mapToInt(p -> p.tableId().length()).max().orElse(5));
    String row = "%-" + width + "s  %-9s  %-9s %8s %8s %8s %8s %9s %8s  %s%n";
    out.printf(
        Locale.ROOT,
        row,
        "TABLE",
        "BUILD",
        "LOAD",
        "+INS",
        "~UPD",
        "-DEL",
        "^REV",
        "=UNCH",
        "!REJ",
        "LIVE");
    for (TablePlan p : plans) {
      LoadPlan l = p.load();
      boolean counted = !l.gates().isEmpty() || l.counts().changed() + l.counts().unchanged() > 0;
      String buildWord = paint(p.build().action(), buildColour(p.build().action()), colour);
      String loadWord = paint(l.status().text(), loadColour(l.status()), colour);
      out.printf(
          Locale.ROOT,
          // Padding is computed on the plain words: escape codes take no columns.
          "%-" + width + "s  %s  %s %8s %8s %8s %8s %9s %8s  %s%n",
          p.tableId(),
          buildWord + " ".repeat(Math.max(0, 9 - p.build().action().length())),
          loadWord + " ".repeat(Math.max(0, 9 - l.status().text().length())),
          counted ? l.counts().inserted() : "-",
          counted ? l.counts().updated() : "-",
          counted ? l.counts().deleted() : "-",
          counted ? l.counts().revived() : "-",
          counted ? l.counts().unchanged() : "-",
          counted ? l.counts().rejected() : "-",
          counted ? l.counts().liveBefore() + " -> " + l.counts().liveAfter() : "-");
      String indent = " ".repeat(2);
      if (!p.build().action().equals("unchanged")) {
        out.println(indent + "build: " + p.build().message());
      }
      if (!l.gates().isEmpty()) {
        out.println(indent + "gates: " + gates(l.gates()));
      }
      out.println(indent + "load: " + l.message());
      l.rejectionSample()
          .forEach(
              r ->
                  out.println(
                      indent
                          + "rejected "
                          + r.get("reason")
                          + ": "
                          + r.get("key_json")
                          + " "
                          + r.get("row_json")));
      if (l.counts().stale() > 0) {
        out.println(indent + LoadCommand.staleLine(l.counts().stale()));
      }
      l.historyVersions()
          .ifPresent(
              v ->
                  out.println(
                      indent
                          + "history: "
                          + v
                          + " version(s) into "
                          + l.tableId()
                          + TableId.HISTORY_SUFFIX));
      l.expectations().stream()
          .filter(e -> e.rowsViolating() > 0)
          .forEach(e -> out.println(indent + ExpectationText.line(e)));
      l.warnings().forEach(w -> out.println(indent + "warning: " + w));
      l.notes().forEach(n -> out.println(indent + "note: " + n));
    }
    long failing = plans.stream().filter(TablePlan::isFailure).count();
    out.println(
        "plan: "
            + plans.size()
            + " table(s), "
            + failing
            + " would be refused or fail; nothing was written"
            + " (+inserted ~updated -deleted ^revived =unchanged !rejected)");
  }

  private static String gates(List<GateVerdict> gates) {
    StringBuilder s = new StringBuilder();
    for (GateVerdict g : gates) {
      if (s.length() > 0) {
        s.append("; ");
      }
      s.append(
          String.format(
              Locale.ROOT,
              "%s %d of %d (%.2f%%) against %d%%: %s",
              g.gate(),
              g.rows(),
              g.liveRows(),
              g.percent(),
              g.threshold(),
              g.verdict()));
    }
    return s.toString();
  }

  private static String buildColour(String action) {
    return switch (action) {
      case "refused", "failed" -> RED;
      case "unchanged" -> "";
      default -> YELLOW;
    };
  }

  private static String loadColour(LoadStatus status) {
    return switch (status) {
      case SUCCEEDED -> GREEN;
      case REFUSED, FAILED -> RED;
      default -> YELLOW;
    };
  }

  private static String paint(String word, String code, boolean colour) {
    return colour && !code.isEmpty() ? code + word + RESET : word;
  }
}
