package io.weaver.cli;

import io.weaver.api.WeaverWorkspace;
import io.weaver.json.Json;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.site.SiteGenerator;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code weaver docs [--out DIR]}: the static documentation site of the workspace and its lakehouse
 * (docs/docs-site.md), by default in {@code <workspace>/.weaver/site}. {@code --item} limits the
 * site to one item's Tables.
 */
final class DocsCommand {
  /** Where the site goes without {@code --out}, relative to the workspace. */
  static final String DEFAULT_OUT = ".weaver/site";

  private DocsCommand() {}

  static int run(CliArgs args, PrintStream out, PrintStream err) {
    SessionSupport support = new SessionSupport(args, out, err);
    Path site =
        args.value("--out")
            .map(Path::of)
            .orElse(support.workspace.resolve(DEFAULT_OUT))
            .toAbsolutePath()
            .normalize();
    return support.checked(checked -> docs(checked, site, out));
  }

  private static int docs(SessionSupport.Checked checked, Path site, PrintStream out) {
    WorkspaceModel model = checked.model();
    var item = checked.args().value("--item");
    if (item.isPresent()) {
      if (!model.items().contains(item.get())) {
        throw new UsageException("the workspace has no item " + item.get());
      }
      model =
          new WorkspaceModel(
              model.root(),
              model.tables().stream().filter(t -> t.item().equals(item.get())).toList(),
              model.tests().stream().filter(t -> t.item().equals(item.get())).toList());
    }
    WeaverWorkspace weaver = checked.open();
    SiteGenerator.Result result =
        new SiteGenerator(weaver.spark(), weaver.layout()).generate(model, site);
    if (checked.json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("index", result.index().toString());
      doc.put("pages", result.pages().size());
      out.println(Json.write(Map.of("site", doc)));
    } else {
      out.println("docs: " + result.pages().size() + " page(s); open " + result.index().toUri());
    }
    return WeaverCli.OK;
  }
}
