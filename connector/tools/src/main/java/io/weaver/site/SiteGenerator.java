package io.weaver.site;

import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.WorkspaceModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * {@code weaver docs}: writes the static documentation site of a workspace and its lakehouse into
 * one folder (docs/docs-site.md): {@code index.html} with the dependency graph and every Table, and
 * {@code tables/<Item>.<Schema>.<Object>.html} per Table. Pages are self-contained (inline CSS, no
 * script, no network) and open from {@code file://}.
 */
public final class SiteGenerator {
  /** Loads per Table the site gathers from {@code _.LoadHistory}. */
  public static final int LOADS_PER_TABLE = 50;

  /** The file that marks a folder as a site this generator wrote (so it may clear old pages). */
  static final String MARKER = ".weaver-site";

  private final SparkSession spark;
  private final LakehouseLayout layout;

  public SiteGenerator(SparkSession spark, LakehouseLayout layout) {
    this.spark = spark;
    this.layout = layout;
  }

  /** What was written: the index and every page, absolute paths. */
  public record Result(Path index, List<Path> pages) {
    public Result {
      pages = List.copyOf(pages);
    }
  }

  /**
   * Writes the site of {@code model} into {@code out} (created when missing). Pages of Tables that
   * no longer exist are removed when {@code out} holds a site written before; other files are never
   * touched.
   */
  public Result generate(WorkspaceModel model, Path out) {
    Path root = out.toAbsolutePath().normalize();
    SiteModel site = SiteModel.gather(spark, layout, model, LOADS_PER_TABLE);
    String generatedAt = TablePage.time(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    PageNames names = new PageNames();
    List<GraphLayout.Node> nodes = new ArrayList<>();
    for (SiteModel.Entry e : site.entries()) {
      String q = e.table().qualifiedName();
      nodes.add(
          new GraphLayout.Node(
              q,
              e.table().tableId().toString(),
              e.table().item() + (e.built() ? "" : " · not built"),
              "table",
              names.page(q)));
    }
    for (SiteModel.Source s : site.sources()) {
      String where = s.item() == null ? "source" : s.item() + " · source";
      nodes.add(new GraphLayout.Node(s.id(), s.text(), where, "source", null));
    }
    GraphLayout.Placed placed = GraphLayout.layout(nodes, site.edges());
    List<Path> pages = new ArrayList<>();
    try {
      Files.createDirectories(root.resolve(PageNames.TABLES));
      if (Files.exists(root.resolve(MARKER))) {
        clearOldPages(root.resolve(PageNames.TABLES));
      }
      Files.writeString(root.resolve(MARKER), "written by weaver docs\n", StandardCharsets.UTF_8);
      Path index = PageNames.resolve(root, "index.html");
      Files.writeString(
          index,
          IndexPage.html(site, names, SvgGraph.svg(placed, ""), generatedAt),
          StandardCharsets.UTF_8);
      pages.add(index);
      for (SiteModel.Entry e : site.entries()) {
        Path page = PageNames.resolve(root, names.page(e.table().qualifiedName()));
        Files.writeString(
            page, TablePage.html(site, e, names, generatedAt), StandardCharsets.UTF_8);
        pages.add(page);
      }
      return new Result(index, pages);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the documentation site to " + root, e);
    }
  }

  private static void clearOldPages(Path tables) throws IOException {
    try (Stream<Path> files = Files.list(tables)) {
      for (Path p : files.filter(p -> p.getFileName().toString().endsWith(".html")).toList()) {
        Files.delete(p);
      }
    }
  }
}
