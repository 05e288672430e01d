package io.weaver.site;

import io.weaver.datatest.DataTestResult;
import io.weaver.datatest.LastTestRuns;
import io.weaver.json.Json;
import io.weaver.metadata.ColumnNote;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ForeignKey;
import io.weaver.metadata.SchemaColumn;
import io.weaver.metadata.TableDeclaration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One Table's page: declaration (description, lineage, form, columns, keys, foreign keys linking to
 * their parent's page, thresholds), built facts (types, managed columns) and what happened to it
 * (recent loads as a chart, last test results). Says "not built yet" where the catalogue has
 * nothing.
 */
final class TablePage {
  /** Rows of the load table under the chart; the chart shows every load gathered. */
  static final int LOAD_ROWS = 10;

  /** Loads whose counts the Expectations section shows. */
  static final int EXPECTATION_LOADS = 5;

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private TablePage() {}

  static String time(Instant at) {
    return at == null ? "" : TIME.format(at);
  }

  static String html(SiteModel site, SiteModel.Entry e, PageNames names, String generatedAt) {
    TableDeclaration t = e.table();
    String folder = PageNames.TABLES;
    StringBuilder out = new StringBuilder();
    out.append(PageFrame.open(t.qualifiedName() + " — Weaver", folder, t.qualifiedName()));
    out.append("<h1>").append(Html.text(t.qualifiedName())).append("</h1>\n");
    out.append("<p class=\"lead\">").append(Html.text(t.description())).append("</p>\n");
    facts(out, e);
    columns(out, e);
    keys(out, site, e, names, folder);
    dependencies(out, site, e, names, folder);
    managed(out, e);
    history(out, e);
    thresholds(out, t);
    expectations(out, e);
    loads(out, e);
    out.append("<h2 id=\"tests\">Last test results</h2>\n");
    if (e.tests().isEmpty()) {
      out.append("<p class=\"missing\">no test run recorded</p>\n");
    } else if (e.tests().get().results().isEmpty()) {
      out.append("<p>The run of ")
          .append(Html.text(time(e.tests().get().runAt())))
          .append(" had no test for this Table (it declares no key, unique key, foreign key or")
          .append(" not-null column).</p>\n");
    } else {
      out.append(testTable(e.tests().get()));
    }
    out.append(PageFrame.close(generatedAt));
    return out.toString();
  }

  private static void facts(StringBuilder out, SiteModel.Entry e) {
    TableDeclaration t = e.table();
    out.append("<dl class=\"facts\">\n");
    fact(out, "Item", Html.text(t.item()) + " (" + Html.text(t.target().word()) + ")");
    fact(out, "Form", Html.text(t.source().form().word()));
    fact(out, "Source file", "<code>" + Html.text(t.source().relativePath()) + "</code>");
    fact(
        out,
        "Lineage",
        t.lineage().map(Html::text).orElse("<span class=\"missing\">not declared</span>"));
    t.owner().ifPresent(o -> fact(out, "Owner", Html.text(o)));
    if (!t.tags().isEmpty()) {
      StringBuilder tags = new StringBuilder();
      t.tags()
          .forEach(
              tag -> tags.append("<span class=\"tag\">").append(Html.text(tag)).append("</span>"));
      fact(out, "Tags", tags.toString());
    }
    fact(out, "Incremental", t.incremental() ? "yes" : "no");
    if (t.primaryKey().isPresent()) {
      fact(out, "Deletes", t.deletes().word());
    }
    t.sequenceColumn()
        .ifPresent(c -> fact(out, "Sequence column", "<code>" + Html.text(c) + "</code>"));
    if (t.history()) {
      // Every version of each key, read by name (docs/table-contract.md, "History").
      fact(
          out,
          "History",
          "every version in <code>"
              + Html.text(t.item() + "." + t.tableId().history())
              + "</code>");
    }
    fact(out, "Has load procedure", t.hasLoadProcedure() ? "yes" : "no");
    t.identity().ifPresent(i -> fact(out, "Identity column", "<code>" + Html.text(i) + "</code>"));
    t.comparisonColumns()
        .ifPresent(c -> fact(out, "Comparison columns", "<code>" + Html.text(c) + "</code>"));
    fact(
        out,
        "Built",
        e.built() ? Html.text(time(e.builtAt())) : "<span class=\"missing\">not built yet</span>");
    out.append("</dl>\n");
  }

  /**
   * The history table of a Table with {@code History: true} (docs/table-contract.md, "History"):
   * its name, how to ask what the Table held at a time, and its columns as built.
   */
  private static void history(StringBuilder out, SiteModel.Entry e) {
    TableDeclaration t = e.table();
    if (!t.history()) {
      return;
    }
    String name = t.item() + "." + t.tableId().history();
    out.append("<h2 id=\"history\">History</h2>\n");
    out.append("<p>Every version of each key is kept in <code>")
        .append(Html.text(name))
        .append("</code>, one row per version, written by each load that changes the key.")
        .append(" What the Table held at a time <code>T</code>:</p>\n");
    out.append("<pre><code>SELECT * FROM ")
        .append(Html.text(name))
        .append("\nWHERE valid_from &lt;= T AND T &lt; valid_to AND NOT is_deleted</code></pre>\n");
    if (e.historyColumns().isEmpty()) {
      out.append("<p><span class=\"missing\">not built yet</span></p>\n");
      return;
    }
    out.append("<table>\n<thead><tr><th>Column</th><th>Type</th><th>Note</th></tr></thead>\n");
    out.append("<tbody>\n");
    for (SiteModel.Column c : e.historyColumns()) {
      out.append("<tr><td><code>")
          .append(Html.text(c.name()))
          .append("</code></td><td><code>")
          .append(Html.text(c.type()))
          .append("</code></td><td>")
          .append(Html.text(c.note()))
          .append("</td></tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }

  private static void fact(StringBuilder out, String name, String html) {
    out.append("<dt>").append(Html.text(name)).append("</dt><dd>").append(html).append("</dd>\n");
  }

  private static void columns(StringBuilder out, SiteModel.Entry e) {
    TableDeclaration t = e.table();
    out.append("<h2 id=\"columns\">Columns</h2>\n");
    List<String[]> rows = new ArrayList<>(); // name, type, nullable, note (escaped html)
    if (e.built()) {
      for (SiteModel.Column c : e.columns()) {
        if (c.managedRole() == null) {
          String note = Html.text(c.note());
          if (c.noteReference() != null) {
            note +=
                " <span class=\"note\">(from <code>"
                    + Html.text(c.noteReference())
                    + "</code>)</span>";
          }
          rows.add(new String[] {c.name(), c.type(), c.nullable() ? "null" : "not null", note});
        }
      }
    } else if (t.schema().isPresent()) {
      for (SchemaColumn c : t.schema().get()) {
        boolean required = t.requiredColumns().contains(c.name());
        rows.add(
            new String[] {
              c.name(),
              c.type(),
              required ? "not null" : "null",
              Html.text(declaredNote(t, c.name()))
            });
      }
    }
    if (rows.isEmpty()) {
      out.append("<p class=\"missing\">not built yet: the columns are inferred from the body")
          .append(" when the Table is built.</p>\n");
      return;
    }
    if (!e.built()) {
      out.append("<p class=\"missing\">not built yet: the columns as declared.</p>\n");
    }
    out.append(
        "<table class=\"grid\"><thead><tr><th>Column</th><th>Type</th><th>Null</th>"
            + "<th>Keys</th><th>Note</th></tr></thead><tbody>\n");
    for (String[] r : rows) {
      out.append("<tr id=\"col-")
          .append(Html.text(PageNames.safe(r[0])))
          .append("\"><td><code>")
          .append(Html.text(r[0]))
          .append("</code></td><td><code>")
          .append(Html.text(r[1]))
          .append("</code></td><td>")
          .append(Html.text(r[2]))
          .append("</td><td>")
          .append(Html.text(keyMarks(t, r[0])))
          .append("</td><td>")
          .append(r[3])
          .append("</td></tr>\n");
    }
    out.append("</tbody></table>\n");
  }

  private static String declaredNote(TableDeclaration t, String column) {
    return t.columnNotes().stream()
        .filter(n -> n.column().equals(column))
        .map(ColumnNote::text)
        .findFirst()
        .orElse("");
  }

  /** PK, UK1…, FK1…: which keys a column is part of. */
  private static String keyMarks(TableDeclaration t, String column) {
    List<String> marks = new ArrayList<>();
    if (t.primaryKey().map(k -> k.contains(column)).orElse(false)) {
      marks.add("PK");
    }
    for (int i = 0; i < t.uniqueKeys().size(); i++) {
      if (t.uniqueKeys().get(i).contains(column)) {
        marks.add("UK" + (i + 1));
      }
    }
    for (int i = 0; i < t.foreignKeys().size(); i++) {
      if (t.foreignKeys().get(i).childColumns().contains(column)) {
        marks.add("FK" + (i + 1));
      }
    }
    return String.join(" ", marks);
  }

  private static void keys(
      StringBuilder out, SiteModel site, SiteModel.Entry e, PageNames names, String folder) {
    TableDeclaration t = e.table();
    out.append("<h2 id=\"keys\">Keys</h2>\n<dl class=\"facts\">\n");
    fact(
        out,
        "Primary key",
        t.primaryKey()
            .map(k -> "<code>" + Html.text(k) + "</code>")
            .orElse("<span class=\"missing\">none: the Table is unkeyed</span>"));
    List<ColumnSet> unique = t.uniqueKeys();
    for (int i = 0; i < unique.size(); i++) {
      fact(out, "Unique key " + (i + 1), "<code>" + Html.text(unique.get(i)) + "</code>");
    }
    if (!t.notNull().isEmpty()) {
      fact(out, "Not null", "<code>" + Html.text(String.join(", ", t.notNull())) + "</code>");
    }
    out.append("</dl>\n<h3 id=\"foreign-keys\">Foreign keys</h3>\n");
    if (t.foreignKeys().isEmpty()) {
      out.append("<p class=\"missing\">none declared</p>\n");
      return;
    }
    out.append(
        "<table class=\"grid\"><thead><tr><th>#</th><th>Columns</th><th>References</th>"
            + "</tr></thead><tbody>\n");
    for (int i = 0; i < t.foreignKeys().size(); i++) {
      ForeignKey fk = t.foreignKeys().get(i);
      Optional<TableDeclaration> parent = site.workspace().resolve(fk.parent(), t.item());
      String target =
          parent
              .map(
                  p ->
                      Html.link(
                          PageNames.relative(folder, names.page(p.qualifiedName())),
                          p.qualifiedName()))
              .orElse("<code>" + Html.text(fk.parentText()) + "</code>");
      out.append("<tr><td>FK")
          .append(i + 1)
          .append("</td><td><code>")
          .append(Html.text(fk.childColumns()))
          .append("</code></td><td>")
          .append(target)
          .append(" <code>[")
          .append(Html.text(String.join(", ", fk.parentColumns())))
          .append("]</code></td></tr>\n");
    }
    out.append("</tbody></table>\n");
  }

  private static void dependencies(
      StringBuilder out, SiteModel site, SiteModel.Entry e, PageNames names, String folder) {
    out.append("<h2 id=\"dependencies\">Lineage in the workspace</h2>\n<dl class=\"facts\">\n");
    List<String> reads = new ArrayList<>();
    for (SiteModel.Dependency d : e.dependsOn()) {
      String label =
          d.table()
              .map(q -> Html.link(PageNames.relative(folder, names.page(q)), q))
              .orElse(Html.link(PageNames.relative(folder, "index.html#sources"), d.text()));
      reads.add(label + " <span class=\"note\">(" + Html.text(d.kind()) + ")</span>");
    }
    fact(
        out,
        "Reads",
        reads.isEmpty()
            ? "<span class=\"missing\">nothing named</span>"
            : String.join(", ", reads));
    List<String> readers =
        e.dependants().stream()
            .map(q -> Html.link(PageNames.relative(folder, names.page(q)), q))
            .toList();
    fact(
        out,
        "Read by",
        readers.isEmpty()
            ? "<span class=\"missing\">no workspace Table</span>"
            : String.join(", ", readers));
    out.append("</dl>\n");
  }

  private static void managed(StringBuilder out, SiteModel.Entry e) {
    out.append("<h2 id=\"managed\">Managed columns</h2>\n");
    List<SiteModel.Column> managed =
        e.columns().stream().filter(c -> c.managedRole() != null).toList();
    if (!e.built() || managed.isEmpty()) {
      out.append("<p class=\"missing\">not built yet: Build adds the managed columns.</p>\n");
      return;
    }
    out.append(
        "<table class=\"grid\"><thead><tr><th>Column</th><th>Type</th><th>Role</th></tr>"
            + "</thead><tbody>\n");
    for (SiteModel.Column c : managed) {
      out.append("<tr><td><code>")
          .append(Html.text(c.name()))
          .append("</code></td><td><code>")
          .append(Html.text(c.type()))
          .append("</code></td><td>")
          .append(Html.text(c.managedRole()))
          .append("</td></tr>\n");
    }
    out.append("</tbody></table>\n");
  }

  private static void thresholds(StringBuilder out, TableDeclaration t) {
    out.append("<h2 id=\"thresholds\">Stability thresholds</h2>\n<dl class=\"facts\">\n");
    threshold(out, t, "Delete percentage threshold", t.deletePercentageThreshold() + "%");
    threshold(out, t, "Update percentage threshold", t.updatePercentageThreshold() + "%");
    threshold(
        out, t, "Stability row threshold", Html.count(t.stabilityRowThreshold()) + " live rows");
    out.append("</dl>\n");
  }

  private static void threshold(StringBuilder out, TableDeclaration t, String key, String value) {
    boolean authored = t.authoredKeys().containsKey(key);
    fact(out, key, Html.text(value) + (authored ? "" : " <span class=\"note\">(default)</span>"));
  }

  /** The declared expectations, each with its violating rows in the last loads, newest first. */
  private static void expectations(StringBuilder out, SiteModel.Entry e) {
    TableDeclaration t = e.table();
    if (t.expectations().isEmpty()) {
      return;
    }
    List<SiteModel.Load> newest = new ArrayList<>(e.loads());
    java.util.Collections.reverse(newest);
    newest = newest.subList(0, Math.min(EXPECTATION_LOADS, newest.size()));
    out.append("<h2 id=\"expectations\">Expectations</h2>\n")
        .append("<p class=\"note\">A row violates an expectation when its rule is false or null.")
        .append(" Violating rows in the last ")
        .append(newest.size())
        .append(" load(s), newest first (from <code>_.LoadExpectation</code>).</p>\n")
        .append(
            "<table class=\"grid\"><thead><tr><th>Expectation</th><th>Rule</th>"
                + "<th>On violation</th><th>Violating rows</th></tr></thead><tbody>\n");
    for (io.weaver.metadata.Expectation x : t.expectations()) {
      List<String> counts = new ArrayList<>();
      for (SiteModel.Load l : newest) {
        Long n = l.violations().get(x.name());
        counts.add(n == null ? "–" : Html.count(n));
      }
      out.append("<tr><td>")
          .append(Html.text(x.name()))
          .append("</td><td><code>")
          .append(Html.text(x.rule()))
          .append("</code></td><td>")
          .append(Html.text(x.action().word()))
          .append(
              x.maxPercentage()
                  .map(p -> Html.text(" (fails above " + p + "% of staging rows)"))
                  .orElse(""))
          .append("</td><td>")
          .append(String.join(", ", counts))
          .append("</td></tr>\n");
    }
    out.append("</tbody></table>\n");
  }

  private static void loads(StringBuilder out, SiteModel.Entry e) {
    out.append("<h2 id=\"loads\">Recent loads</h2>\n");
    if (e.loads().isEmpty()) {
      out.append("<p class=\"missing\">")
          .append(e.built() ? "no load recorded yet" : "not built yet")
          .append("</p>\n");
      return;
    }
    out.append("<p class=\"note\">Rows inserted, updated and deleted by the last ")
        .append(e.loads().size())
        .append(" load(s), oldest left (from <code>_.LoadHistory</code>).</p>\n");
    out.append(LoadChart.svg(e.loads()));
    out.append(
        "<table class=\"grid\"><thead><tr><th>Load</th><th>Status</th><th>Load time</th>"
            + "<th>Inserted</th><th>Updated</th><th>Deleted</th><th>Rejected</th>"
            + "<th>Live after</th><th>Message</th></tr></thead><tbody>\n");
    List<SiteModel.Load> newest = new ArrayList<>(e.loads());
    java.util.Collections.reverse(newest);
    for (SiteModel.Load l : newest.subList(0, Math.min(LOAD_ROWS, newest.size()))) {
      out.append("<tr><td><code>")
          .append(Html.text(l.loadId()))
          .append("</code></td><td class=\"status-")
          .append(Html.text(l.status()))
          .append("\">")
          .append(Html.text(l.status()))
          .append("</td><td>")
          .append(Html.text(time(l.at())))
          .append("</td><td>")
          .append(Html.count(l.inserted()))
          .append("</td><td>")
          .append(Html.count(l.updated()))
          .append("</td><td>")
          .append(Html.count(l.deleted()))
          .append("</td><td>")
          .append(Html.count(l.rejected()))
          .append("</td><td>")
          .append(l.liveAfter() == null ? "" : Html.count(l.liveAfter()))
          .append("</td><td>")
          .append(Html.text(l.message()))
          .append("</td></tr>\n");
    }
    out.append("</tbody></table>\n");
  }

  static String testTable(LastTestRuns.Run run) {
    StringBuilder out = new StringBuilder();
    out.append("<p class=\"note\">Run at ").append(Html.text(time(run.runAt()))).append(".</p>\n");
    out.append(
        "<table class=\"grid\"><thead><tr><th>Test</th><th>Kind</th><th>Severity</th>"
            + "<th>Status</th><th>Violations</th><th>Sample / message</th></tr></thead><tbody>\n");
    for (DataTestResult r : run.results()) {
      String detail =
          r.message() != null
              ? Html.text(r.message())
              : r.sample().isEmpty()
                  ? ""
                  : "<code>" + Html.text(Json.write(r.sample())) + "</code>";
      out.append("<tr><td><code>")
          .append(Html.text(r.testId()))
          .append("</code></td><td>")
          .append(Html.text(r.kind()))
          .append("</td><td>")
          .append(Html.text(r.severity()))
          .append("</td><td class=\"status-")
          .append(Html.text(r.status()))
          .append("\">")
          .append(Html.text(r.status()))
          .append("</td><td>")
          .append(Html.count(r.violations()))
          .append("</td><td>")
          .append(detail)
          .append("</td></tr>\n");
    }
    out.append("</tbody></table>\n");
    return out.toString();
  }
}
