package io.weaver.site;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.datatest.LastTestRuns;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.TableDeclaration;
import io.weaver.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code weaver docs} on the bundled example after two loads and a test run: the pages, their
 * links, the ELK-placed graph, a Table page's sections, the Warehouse Table never built, and the
 * test results recorded under the lakehouse.
 */
class SiteGeneratorTest {
  private final LogisticsSite site = LogisticsSite.get();

  private Path page(String qualified) {
    return site.out.resolve("tables/" + qualified + ".html");
  }

  @Test
  void everyTableHasAPageAndEveryInternalLinkResolves() {
    Path root = site.out.toAbsolutePath().normalize();
    assertEquals(root.resolve("index.html"), site.result.index());
    assertEquals(site.model.tables().size() + 1, site.result.pages().size());
    List<String> problems = new ArrayList<>();
    int links = 0;
    for (Path p : site.result.pages()) {
      assertTrue(Files.isRegularFile(p), p.toString());
      for (String href : SiteLinks.hrefs(SiteLinks.read(p))) {
        links++;
        String problem = SiteLinks.problem(root, p, href);
        if (problem != null) {
          problems.add(root.relativize(p) + ": " + problem);
        }
      }
    }
    assertEquals(List.of(), problems);
    assertTrue(links > 20, "links checked: " + links);
    for (TableDeclaration t : site.model.tables()) {
      assertTrue(Files.isRegularFile(page(t.qualifiedName())), t.qualifiedName());
    }
  }

  @Test
  void theGraphPlacesEveryTableAndSourceWithElk() {
    String index = SiteLinks.read(site.result.index());
    Pattern node =
        Pattern.compile(
            "data-node=\"([^\"]+)\"><title>[^<]*</title><rect x=\"([0-9.]+)\" y=\"([0-9.]+)\"");
    Matcher m = node.matcher(index);
    Set<String> placed = new HashSet<>();
    Set<String> positions = new HashSet<>();
    while (m.find()) {
      placed.add(m.group(1));
      positions.add(m.group(2) + "," + m.group(3));
    }
    for (TableDeclaration t : site.model.tables()) {
      assertTrue(placed.contains(t.qualifiedName()), t.qualifiedName() + " in " + placed);
      assertTrue(
          index.contains("<a href=\"tables/" + t.qualifiedName() + ".html\" class=\"node table\""),
          "the node of " + t.qualifiedName() + " links to its page");
    }
    // An external source: the JSON files Parcel.Event reads by path, in its item's file area.
    assertTrue(
        placed.contains("source:" + LogisticsSite.LOGISTICS + "/json.`Files/landing/scans`"),
        placed.toString());
    assertEquals(placed.size(), positions.size(), "ELK gave every box its own place");
    // Layered from left to right: a Table sits right of what it reads.
    assertTrue(
        x(index, LogisticsSite.LOGISTICS + ".Depot.Site")
            < x(index, LogisticsSite.LOGISTICS + ".Parcel.StatusCount"));
    assertTrue(index.contains("<path class=\"edge\" d=\"M "), "edges routed");
  }

  private static double x(String index, String node) {
    Matcher m =
        Pattern.compile(
                "data-node=\""
                    + Pattern.quote(node)
                    + "\"><title>[^<]*</title><rect x=\"([0-9.]+)\"")
            .matcher(index);
    assertTrue(m.find(), node);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aTablePageShowsColumnsKeysLoadsAndTests() {
    String current = LogisticsSite.LOGISTICS + ".Parcel.Current";
    String html = SiteLinks.read(page(current));
    assertTrue(html.contains("Current state of each parcel in the network."), "description");
    assertTrue(html.contains("Parquet files in Files/Landing/Parcels"), "lineage");
    assertTrue(html.contains("<code>weight_kg</code></td><td><code>decimal(9,3)</code>"), "types");
    assertTrue(html.contains("Tracking number as printed on the label."), "notes");
    assertTrue(html.contains("Surrogate number of the depot"), "a borrowed note, resolved");
    assertTrue(html.contains("<td>PK</td>"), "key marks");
    assertTrue(
        html.contains(
            "<a href=\"../tables/"
                + LogisticsSite.LOGISTICS
                + ".Depot.Site.html\">"
                + LogisticsSite.LOGISTICS
                + ".Depot.Site</a> <code>[site_id]</code>"),
        "the foreign key links to its parent's page");
    assertTrue(html.contains("<code>row_signature</code>"), "managed columns");
    assertTrue(html.contains("Update percentage threshold</dt><dd>60%</dd>"), "an authored one");
    assertTrue(html.contains("Delete percentage threshold</dt><dd>5% <span"), "a default one");
    assertTrue(html.contains("<svg class=\"chart\""), "the load chart");
    assertEquals(2, count(html, "<g class=\"load\">"), "one bar per load");
    assertTrue(html.contains("Parcel.Current:primary-key"), "last tests");
    assertTrue(html.contains("class=\"status-passed\">passed"), html);

    // Customer.Account declares two expectations; its one load here warned about one account.
    String accounts = SiteLinks.read(page(LogisticsSite.SALES + ".Customer.Account"));
    assertTrue(accounts.contains("<h2 id=\"expectations\">Expectations</h2>"), "expectations");
    assertTrue(
        accounts.contains(
            "<tr><td>account number format</td><td><code>account_id rlike &#39;^C[0-9]{3}$&#39;"),
        accounts);
    assertTrue(accounts.contains("</td><td>quarantine</td><td>0</td></tr>"), accounts);
    assertTrue(accounts.contains("</td><td>warn</td><td>1</td></tr>"), accounts);

    // Depot.Site keeps its history: the page names the history table a reader queries.
    String depot = SiteLinks.read(page(LogisticsSite.LOGISTICS + ".Depot.Site"));
    assertTrue(
        depot.contains(
            "<dt>History</dt><dd>every version in <code>"
                + LogisticsSite.LOGISTICS
                + ".Depot.Site__History</code></dd>"),
        depot);
    // Its History section: the query for a time, and the history table's columns as built.
    assertTrue(depot.contains("<h2 id=\"history\">History</h2>"), depot);
    assertTrue(
        depot.contains("WHERE valid_from &lt;= T AND T &lt; valid_to AND NOT is_deleted"), depot);
    assertTrue(
        depot.contains(
            "<tr><td><code>site_code</code></td><td><code>string</code></td><td>Three-letter code"
                + " printed on labels.</td></tr>"),
        depot);
    assertTrue(
        depot.contains("<tr><td><code>valid_to</code></td><td><code>timestamp</code></td>"), depot);

    String warehouse = SiteLinks.read(page(LogisticsSite.REPORTING + ".Parcel.StatusCount"));
    assertTrue(warehouse.contains("not built yet"), "a Warehouse Table is never built");
    assertTrue(warehouse.contains("no test run recorded"));
  }

  @Test
  void testRunsAreRecordedUnderTheLakehouse() {
    LakehouseLayout layout = LakehouseLayout.at(site.lake.toString());
    LastTestRuns runs = new LastTestRuns(SharedSpark.get(), layout);
    assertEquals(
        site.lake.resolve(LogisticsSite.LOGISTICS + "/Files/_weaver/last-tests.json").toString(),
        runs.location(LogisticsSite.LOGISTICS));
    LastTestRuns.ItemRuns logistics = runs.read(LogisticsSite.LOGISTICS);
    assertEquals(
        Set.of("Depot.Site", "Parcel.Current", "Parcel.Event", "Parcel.StatusCount"),
        logistics.tables().keySet());
    assertEquals(
        "passed",
        logistics.tables().get("Parcel.Current").results().get(0).status(),
        logistics.tables().toString());
    assertTrue(logistics.authored().isPresent(), "the authored test of the item ran");
    assertEquals("ParcelWeightPositive", logistics.authored().get().results().get(0).testId());
  }

  @Test
  void valuesAreEscapedAndPageNamesStayInTheFolder() {
    assertEquals(
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;",
        Html.text("<script>alert(\"x\")</script> & '"));
    assertEquals("A.B.C", PageNames.safe("A.B.C"));
    assertEquals("~2E.~2Fetc", PageNames.safe("../etc"));
    assertFalse(PageNames.safe("a/b\\c").contains("/"));
    PageNames names = new PageNames();
    assertEquals("tables/I.S.Obj.html", names.page("I.S.Obj"));
    assertEquals("tables/I.S.obj~2.html", names.page("I.S.obj"), "case-only twins differ");
  }

  /**
   * The site in Debian's headless Chromium (docs/docs-site.md, "Tests"); nested so that it runs in
   * this class's JVM, on the same built example.
   */
  @Nested
  class InChromium {
    @Test
    void indexAndTablePageOpenCleanlyAndTheGraphIsVisible() throws Exception {
      ChromiumChecks.indexAndTablePageOpenCleanlyAndTheGraphIsVisible(site);
    }
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }
}
