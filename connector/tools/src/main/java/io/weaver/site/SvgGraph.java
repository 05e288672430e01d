package io.weaver.site;

import java.util.Locale;

/**
 * The dependency graph as inline SVG, drawn from {@link GraphLayout}'s coordinates: each Table a
 * box linking to its page, each external source a box of its own kind, each edge an arrow from
 * source to reader. Works without JavaScript; every label is escaped.
 */
final class SvgGraph {
  private SvgGraph() {}

  /**
   * @param fromFolder the folder of the page the SVG sits in ("" for the site root), so links to
   *     Table pages resolve
   */
  static String svg(GraphLayout.Placed placed, String fromFolder) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "<svg id=\"graph\" class=\"graph\" xmlns=\"http://www.w3.org/2000/svg\""
                + " viewBox=\"0 0 %.1f %.1f\" width=\"%.0f\" height=\"%.0f\" role=\"img\""
                + " aria-labelledby=\"graph-title\">\n",
            placed.width(),
            placed.height(),
            placed.width(),
            placed.height()));
    out.append("<title id=\"graph-title\">Dependency graph of the workspace's Tables</title>\n");
    out.append(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\""
            + " markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
            + "<path d=\"M 0 0 L 10 5 L 0 10 z\" class=\"arrowhead\"/></marker></defs>\n");
    for (GraphLayout.Route route : placed.routes()) {
      StringBuilder d = new StringBuilder();
      for (double[] p : route.points()) {
        d.append(d.length() == 0 ? "M" : " L")
            .append(String.format(Locale.ROOT, " %.1f %.1f", p[0], p[1]));
      }
      out.append("<path class=\"edge\" d=\"")
          .append(d)
          .append("\" marker-end=\"url(#arrow)\"><title>")
          .append(Html.text(route.edge().from() + " → " + route.edge().to()))
          .append("</title></path>\n");
    }
    for (GraphLayout.Box box : placed.boxes()) {
      GraphLayout.Node n = box.node();
      String shape =
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"6\"/>"
                  + "<text x=\"%.1f\" y=\"%.1f\" class=\"sub\">%s</text>"
                  + "<text x=\"%.1f\" y=\"%.1f\" class=\"name\">%s</text>",
              box.x(),
              box.y(),
              box.width(),
              box.height(),
              box.x() + GraphLayout.PADDING,
              box.y() + 16,
              Html.text(n.subtitle()),
              box.x() + GraphLayout.PADDING,
              box.y() + 32,
              Html.text(n.title()));
      String cls = "node " + n.kind();
      if (n.href() != null) {
        out.append("<a href=\"")
            .append(Html.text(PageNames.relative(fromFolder, n.href())))
            .append("\" class=\"")
            .append(Html.text(cls))
            .append("\" data-node=\"")
            .append(Html.text(n.id()))
            .append("\"><title>")
            .append(Html.text(n.subtitle() + " " + n.title()))
            .append("</title>")
            .append(shape)
            .append("</a>\n");
      } else {
        out.append("<g class=\"")
            .append(Html.text(cls))
            .append("\" data-node=\"")
            .append(Html.text(n.id()))
            .append("\"><title>")
            .append(Html.text(n.subtitle() + " " + n.title()))
            .append("</title>")
            .append(shape)
            .append("</g>\n");
      }
    }
    out.append("</svg>\n");
    return out.toString();
  }
}
