package io.weaver.site;

import io.weaver.datatest.DataTestResult;
import io.weaver.datatest.LastTestRuns;
import io.weaver.metadata.TableDeclaration;
import java.util.List;
import java.util.Optional;

/** {@code index.html}: the graph of every Table and source, then each item's Tables. */
final class IndexPage {
  private IndexPage() {}

  static String html(SiteModel site, PageNames names, String graphSvg, String generatedAt) {
    StringBuilder out = new StringBuilder();
    String root =
        site.workspace().root().getFileName() == null
            ? site.workspace().root().toString()
            : site.workspace().root().getFileName().toString();
    out.append(PageFrame.open("Weaver workspace " + root, "", null));
    out.append("<h1>Workspace ").append(Html.text(root)).append("</h1>\n");
    out.append("<p class=\"lead\">")
        .append(site.entries().size())
        .append(" Table(s) in ")
        .append(site.workspace().items().size())
        .append(" item(s), ")
        .append(site.sources().size())
        .append(" external source(s).</p>\n");
    out.append("<h2 id=\"graph-heading\">Dependency graph</h2>\n")
        .append("<p class=\"note\">Data flows left to right: each arrow goes from what a Table")
        .append(" reads to the Table. Solid boxes are Tables (click one for its page), dashed")
        .append(" boxes are sources outside the workspace.</p>\n")
        .append("<div class=\"graph-wrap\">\n")
        .append(graphSvg)
        .append("</div>\n");
    for (String item : site.workspace().items()) {
      List<SiteModel.Entry> entries =
          site.entries().stream().filter(e -> e.table().item().equals(item)).toList();
      String target = entries.get(0).table().target().word();
      out.append("<h2 id=\"item-")
          .append(Html.text(PageNames.safe(item)))
          .append("\">")
          .append(Html.text(item))
          .append(" <span class=\"note\">(")
          .append(Html.text(target))
          .append(")</span></h2>\n");
      out.append(
          "<table class=\"grid\"><thead><tr><th>Table</th><th>Form</th><th>Description</th>"
              + "<th>Built</th><th>Last load</th><th>Last tests</th></tr></thead><tbody>\n");
      for (SiteModel.Entry e : entries) {
        TableDeclaration t = e.table();
        out.append("<tr><td>")
            .append(Html.link(names.page(t.qualifiedName()), t.tableId()))
            .append("</td><td>")
            .append(Html.text(t.source().form().word()))
            .append("</td><td>")
            .append(Html.text(t.description()))
            .append("</td><td>")
            .append(
                e.built()
                    ? Html.text(TablePage.time(e.builtAt()))
                    : "<span class=\"missing\">not built yet</span>")
            .append("</td><td>")
            .append(lastLoad(e))
            .append("</td><td>")
            .append(testSummary(e.tests()))
            .append("</td></tr>\n");
      }
      out.append("</tbody></table>\n");
      Optional<LastTestRuns.Run> authored =
          site.authoredTests().getOrDefault(item, Optional.empty());
      if (authored.isPresent() && !authored.get().results().isEmpty()) {
        out.append("<h3>Authored tests of ").append(Html.text(item)).append("</h3>\n");
        out.append(TablePage.testTable(authored.get()));
      }
    }
    out.append("<h2 id=\"sources\">External sources</h2>\n");
    if (site.sources().isEmpty()) {
      out.append("<p class=\"missing\">No Table names a source outside the workspace.</p>\n");
    } else {
      out.append("<table class=\"grid\"><thead><tr><th>Source</th><th>Kind</th><th>Read by</th>")
          .append("</tr></thead><tbody>\n");
      for (SiteModel.Source s : site.sources()) {
        out.append("<tr><td><code>")
            .append(Html.text(s.text()))
            .append("</code>")
            .append(
                s.item() == null
                    ? ""
                    : " <span class=\"note\">(" + Html.text(s.item()) + ")</span>")
            .append("</td><td>")
            .append(Html.text(s.kind()))
            .append("</td><td>");
        List<String> readers =
            site.edges().stream()
                .filter(e -> e.from().equals(s.id()))
                .map(GraphLayout.Edge::to)
                .toList();
        out.append(
            String.join(", ", readers.stream().map(r -> Html.link(names.page(r), r)).toList()));
        out.append("</td></tr>\n");
      }
      out.append("</tbody></table>\n");
    }
    out.append(PageFrame.close(generatedAt));
    return out.toString();
  }

  private static String lastLoad(SiteModel.Entry e) {
    if (e.loads().isEmpty()) {
      return "<span class=\"missing\">" + (e.built() ? "no load yet" : "—") + "</span>";
    }
    SiteModel.Load l = e.loads().get(e.loads().size() - 1);
    return "<span class=\"status-"
        + Html.text(l.status())
        + "\">"
        + Html.text(l.status())
        + "</span> "
        + Html.text(TablePage.time(l.at()));
  }

  static String testSummary(Optional<LastTestRuns.Run> run) {
    if (run.isEmpty()) {
      return "<span class=\"missing\">no test run recorded</span>";
    }
    List<DataTestResult> results = run.get().results();
    long failed = results.stream().filter(DataTestResult::failed).count();
    return "<span class=\"status-"
        + (failed == 0 ? "passed" : "failed")
        + "\">"
        + (results.size() - failed)
        + " passed, "
        + failed
        + " failed</span>";
  }
}
