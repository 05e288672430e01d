package io.weaver.site;

import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * A Table's recent loads as an inline SVG bar chart: one stacked bar per load, oldest left, of the
 * rows it inserted, updated and deleted, on a linear scale from 0 to the largest load. Each bar
 * carries a tooltip ({@code <title>}) with the load's id, status and counts.
 */
final class LoadChart {
  static final int WIDTH = 640;
  static final int HEIGHT = 190;
  private static final int LEFT = 56;
  private static final int RIGHT = 12;
  private static final int TOP = 24;
  private static final int BOTTOM = 34;
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
          .withZone(java.time.ZoneOffset.UTC);

  private LoadChart() {}

  /** The chart of {@code loads}, oldest first; never empty (callers say "no loads" instead). */
  static String svg(List<SiteModel.Load> loads) {
    long max = 1;
    for (SiteModel.Load l : loads) {
      max = Math.max(max, l.inserted() + l.updated() + l.deleted());
    }
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    double slot = plotW / Math.max(loads.size(), 1);
    double bar = Math.max(2, Math.min(28, slot * 0.7));
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\""
                + " width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"Rows inserted, updated"
                + " and deleted by the last %d load(s)\">\n",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT,
            loads.size()));
    // Axes and the two ticks that matter: 0 and the largest load.
    out.append(
        String.format(
            Locale.ROOT,
            "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\"/>"
                + "<line class=\"axis\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
            LEFT,
            TOP,
            LEFT,
            TOP + plotH,
            LEFT,
            TOP + plotH,
            LEFT + plotW,
            TOP + plotH));
    out.append(
        String.format(
            Locale.ROOT,
            "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">0</text>"
                + "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
            LEFT - 6,
            TOP + plotH + 4,
            LEFT - 6,
            TOP + 4,
            Html.text(Html.count(max))));
    for (int i = 0; i < loads.size(); i++) {
      SiteModel.Load l = loads.get(i);
      double x = LEFT + i * slot + (slot - bar) / 2;
      double y = TOP + plotH;
      out.append("<g class=\"load\"><title>")
          .append(
              Html.text(
                  l.loadId()
                      + " "
                      + l.status()
                      + ": +"
                      + l.inserted()
                      + " inserted, ~"
                      + l.updated()
                      + " updated, -"
                      + l.deleted()
                      + " deleted"))
          .append("</title>");
      // A load that changed nothing still shows where it was.
      out.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"slot %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
              l.status().equals("succeeded") ? "ok" : "other",
              x,
              (double) TOP,
              bar,
              plotH));
      for (String[] part :
          new String[][] {
            {"inserted", Long.toString(l.inserted())},
            {"updated", Long.toString(l.updated())},
            {"deleted", Long.toString(l.deleted())}
          }) {
        long n = Long.parseLong(part[1]);
        if (n == 0) {
          continue;
        }
        double h = plotH * n / max;
        y -= h;
        out.append(
            String.format(
                Locale.ROOT,
                "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
                part[0],
                x,
                y,
                bar,
                h));
      }
      out.append("</g>\n");
    }
    SiteModel.Load first = loads.get(0);
    SiteModel.Load last = loads.get(loads.size() - 1);
    out.append(
        String.format(
            Locale.ROOT,
            "<text class=\"tick\" x=\"%d\" y=\"%d\">%s</text>",
            LEFT,
            HEIGHT - 14,
            Html.text(first.at() == null ? "" : DAY.format(first.at()))));
    if (loads.size() > 1) {
      out.append(
          String.format(
              Locale.ROOT,
              "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\">%s</text>",
              LEFT + plotW,
              HEIGHT - 14,
              Html.text(last.at() == null ? "" : DAY.format(last.at()))));
    }
    // Legend, top right.
    String[][] legend = {{"inserted", "inserted"}, {"updated", "updated"}, {"deleted", "deleted"}};
    double lx = LEFT + plotW - 3 * 84;
    for (String[] entry : legend) {
      out.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"%s\" x=\"%.1f\" y=\"6\" width=\"10\" height=\"10\"/>"
                  + "<text class=\"tick\" x=\"%.1f\" y=\"15\">%s</text>",
              entry[0],
              lx,
              lx + 14,
              entry[1]));
      lx += 84;
    }
    out.append("\n</svg>\n");
    return out.toString();
  }
}
