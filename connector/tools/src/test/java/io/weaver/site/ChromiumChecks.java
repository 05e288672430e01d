package io.weaver.site;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * What {@link SiteGeneratorTest.InChromium} checks (in the generator test's JVM, so both share one
 * built and loaded example): the generated site in a real headless Chromium (Debian's {@code
 * chromium}), opened from {@code file://} with no server: the index and a Table page load with no
 * console error, exception or error log entry, the graph is drawn (its SVG has a size on screen),
 * every internal link of both pages names a file of the site, and a screenshot of the index is
 * saved to {@code target/site-screenshots/index.png}. Without Chromium the test is skipped, except
 * under {@code CI=true}, where it fails.
 */
final class ChromiumChecks {
  private ChromiumChecks() {}

  static void indexAndTablePageOpenCleanlyAndTheGraphIsVisible(LogisticsSite site)
      throws Exception {
    boolean present = Files.isExecutable(Chromium.BINARY);
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new AssertionError(
          Chromium.BINARY + " is missing; CI must install it (apt-get install chromium, .ci/run)");
    }
    Assumptions.assumeTrue(
        present, Chromium.BINARY + " is missing: apt-get install chromium to run this test");
    Path root = site.out.toAbsolutePath().normalize();
    Path table = root.resolve("tables/" + LogisticsSite.LOGISTICS + ".Parcel.Current.html");
    try (Chromium chromium = Chromium.start(1280, 900)) {
      chromium.call("Runtime.enable", Map.of());
      chromium.call("Log.enable", Map.of());
      chromium.call("Page.enable", Map.of());

      chromium.open(site.result.index().toUri().toString());
      JsonNode box =
          chromium.evaluate(
              "(() => { const r = document.getElementById('graph').getBoundingClientRect();"
                  + " return {w: r.width, h: r.height,"
                  + " nodes: document.querySelectorAll('#graph .node rect').length}; })()");
      assertTrue(box.path("w").asDouble() > 100 && box.path("h").asDouble() > 50, box.toString());
      assertEquals(
          site.model.tables().size() + countSources(site),
          box.path("nodes").asInt(),
          "a box per Table and source");
      List<String> broken = brokenLinks(chromium, root);
      byte[] png =
          Base64.getDecoder()
              .decode(
                  chromium
                      .call("Page.captureScreenshot", Map.of("format", "png"))
                      .path("data")
                      .asText());
      Path shots = Path.of("target", "site-screenshots").toAbsolutePath();
      Files.createDirectories(shots);
      Files.write(shots.resolve("index.png"), png);
      assertTrue(png.length > 10_000, "a screenshot with something on it: " + png.length);

      chromium.open(table.toUri().toString());
      JsonNode page =
          chromium.evaluate(
              "({title: document.querySelector('h1').textContent,"
                  + " chart: document.querySelector('svg.chart').getBoundingClientRect().width,"
                  + " columns: document.querySelectorAll('#columns + table tbody tr').length})");
      assertEquals(LogisticsSite.LOGISTICS + ".Parcel.Current", page.path("title").asText());
      assertTrue(page.path("chart").asDouble() > 100, page.toString());
      assertEquals(5, page.path("columns").asInt(), page.toString());
      broken.addAll(brokenLinks(chromium, root));
      assertEquals(List.of(), broken, "links that name no file of the site");
      assertEquals(List.of(), chromium.errors(), "console errors, exceptions, error log entries");
    }
  }

  private static int countSources(LogisticsSite site) {
    String index = SiteLinks.read(site.result.index());
    int n = 0;
    for (int i = index.indexOf("data-node=\"source:");
        i >= 0;
        i = index.indexOf("data-node=\"source:", i + 1)) {
      n++;
    }
    return n;
  }

  /** Every {@code a[href]} of the open page (HTML and SVG anchors), resolved by the browser. */
  private static List<String> brokenLinks(Chromium chromium, Path root) {
    JsonNode hrefs =
        chromium.evaluate(
            "[...document.querySelectorAll('a[href]')]"
                + ".map(a => new URL(a.getAttribute('href'), document.baseURI).href)");
    List<String> broken = new ArrayList<>();
    assertTrue(hrefs.size() >= 2, "links found: " + hrefs);
    for (JsonNode h : hrefs) {
      URI uri = URI.create(h.asText());
      if (!"file".equals(uri.getScheme())) {
        broken.add(h.asText() + " (not a file of the site)");
        continue;
      }
      Path target = Path.of(URI.create("file://" + uri.getRawPath())).normalize();
      if (!target.startsWith(root) || !Files.isRegularFile(target)) {
        broken.add(h.asText());
      }
    }
    return broken;
  }
}
