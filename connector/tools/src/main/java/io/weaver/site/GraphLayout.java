package io.weaver.site;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.elk.alg.layered.options.LayeredMetaDataProvider;
import org.eclipse.elk.alg.layered.options.LayeredOptions;
import org.eclipse.elk.core.RecursiveGraphLayoutEngine;
import org.eclipse.elk.core.data.LayoutMetaDataService;
import org.eclipse.elk.core.math.KVector;
import org.eclipse.elk.core.options.CoreOptions;
import org.eclipse.elk.core.options.Direction;
import org.eclipse.elk.core.options.EdgeRouting;
import org.eclipse.elk.core.util.BasicProgressMonitor;
import org.eclipse.elk.graph.ElkBendPoint;
import org.eclipse.elk.graph.ElkEdge;
import org.eclipse.elk.graph.ElkEdgeSection;
import org.eclipse.elk.graph.ElkNode;
import org.eclipse.elk.graph.util.ElkGraphUtil;

/**
 * Lays out the dependency graph with the Eclipse Layout Kernel's layered algorithm (Sugiyama style:
 * layers left to right in the direction data flows, crossings minimised, orthogonal edge routes).
 * We only size the boxes from their labels; every coordinate comes from ELK.
 */
final class GraphLayout {
  /** Approximate advance of one character of the graph's 12px sans-serif font. */
  static final double CHAR_WIDTH = 7.2;

  static final double NODE_HEIGHT = 42;
  static final double PADDING = 14;

  /** A box to place: an id, its two label lines, its kind (a CSS class) and link target. */
  record Node(String id, String title, String subtitle, String kind, String href) {}

  /** Data flows from {@code from} (a source) to {@code to} (the Table reading it). */
  record Edge(String from, String to) {}

  record Box(Node node, double x, double y, double width, double height) {}

  /** An edge's route: its points from start to end. */
  record Route(Edge edge, List<double[]> points) {}

  record Placed(double width, double height, List<Box> boxes, List<Route> routes) {}

  static {
    // Outside Eclipse no plug-in registry runs: the service (which also registers how ELK copies
    // its option values) and the layered algorithm's options are registered here, once.
    LayoutMetaDataService.getInstance()
        .registerLayoutMetaDataProviders(new LayeredMetaDataProvider());
  }

  private GraphLayout() {}

  static double widthOf(Node node) {
    int chars = Math.max(node.title().length(), node.subtitle().length());
    return Math.max(90, Math.ceil(chars * CHAR_WIDTH + 2 * PADDING));
  }

  static Placed layout(List<Node> nodes, List<Edge> edges) {
    ElkNode root = ElkGraphUtil.createGraph();
    root.setProperty(CoreOptions.ALGORITHM, LayeredOptions.ALGORITHM_ID);
    root.setProperty(CoreOptions.DIRECTION, Direction.RIGHT);
    root.setProperty(CoreOptions.EDGE_ROUTING, EdgeRouting.ORTHOGONAL);
    root.setProperty(CoreOptions.PADDING, new org.eclipse.elk.core.math.ElkPadding(16));
    root.setProperty(LayeredOptions.SPACING_NODE_NODE, 18.0);
    root.setProperty(LayeredOptions.SPACING_NODE_NODE_BETWEEN_LAYERS, 56.0);
    root.setProperty(LayeredOptions.SPACING_EDGE_NODE_BETWEEN_LAYERS, 16.0);
    Map<String, ElkNode> elk = new LinkedHashMap<>();
    for (Node n : nodes) {
      ElkNode e = ElkGraphUtil.createNode(root);
      e.setIdentifier(n.id());
      e.setDimensions(widthOf(n), NODE_HEIGHT);
      elk.put(n.id(), e);
    }
    Map<ElkEdge, Edge> elkEdges = new LinkedHashMap<>();
    for (Edge edge : edges) {
      ElkNode from = elk.get(edge.from());
      ElkNode to = elk.get(edge.to());
      if (from != null && to != null && from != to) {
        elkEdges.put(ElkGraphUtil.createSimpleEdge(from, to), edge);
      }
    }
    new RecursiveGraphLayoutEngine().layout(root, new BasicProgressMonitor());

    List<Box> boxes = new ArrayList<>();
    for (Node n : nodes) {
      ElkNode e = elk.get(n.id());
      boxes.add(new Box(n, e.getX(), e.getY(), e.getWidth(), e.getHeight()));
    }
    List<Route> routes = new ArrayList<>();
    elkEdges.forEach(
        (e, edge) -> {
          List<double[]> points = new ArrayList<>();
          for (ElkEdgeSection s : e.getSections()) {
            // Edge coordinates are relative to the edge's containing node: the root here.
            points.add(new double[] {s.getStartX(), s.getStartY()});
            for (ElkBendPoint b : s.getBendPoints()) {
              points.add(new double[] {b.getX(), b.getY()});
            }
            points.add(new double[] {s.getEndX(), s.getEndY()});
          }
          routes.add(new Route(edge, points));
        });
    KVector size = new KVector(root.getWidth(), root.getHeight());
    return new Placed(size.x, size.y, boxes, routes);
  }
}
