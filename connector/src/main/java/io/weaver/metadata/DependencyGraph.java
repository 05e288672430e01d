package io.weaver.metadata;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A directed graph of Tables by qualified name ({@code Item.Schema.Object}); an edge {@code a -> b}
 * means a depends on b (b loads first). Deterministic: nodes and edges are kept sorted.
 */
public final class DependencyGraph {
  private final Map<String, Set<String>> edges = new TreeMap<>();

  public void addNode(String node) {
    edges.computeIfAbsent(node, k -> new TreeSet<>());
  }

  public void addEdge(String from, String to) {
    addNode(from);
    addNode(to);
    edges.get(from).add(to);
  }

  /** Every elementary cycle found by the strongly connected components, one path per component. */
  public List<List<String>> cycles() {
    List<List<String>> cycles = new ArrayList<>();
    for (Set<String> component : components()) {
      String start = component.iterator().next();
      if (component.size() == 1 && !edges.get(start).contains(start)) {
        continue;
      }
      cycles.add(cycleFrom(start, component));
    }
    return cycles;
  }

  /** Dependencies first; ties by name. Nodes on a cycle come in name order at their place. */
  public List<String> topologicalOrder() {
    Map<String, Integer> remaining = new HashMap<>();
    Map<String, List<String>> dependants = new HashMap<>();
    for (var e : edges.entrySet()) {
      remaining.putIfAbsent(e.getKey(), 0);
      for (String dep : e.getValue()) {
        if (!dep.equals(e.getKey())) {
          remaining.merge(e.getKey(), 1, Integer::sum);
          dependants.computeIfAbsent(dep, k -> new ArrayList<>()).add(e.getKey());
        }
      }
    }
    TreeSet<String> ready = new TreeSet<>();
    remaining.forEach(
        (node, count) -> {
          if (count == 0) {
            ready.add(node);
          }
        });
    List<String> order = new ArrayList<>();
    while (order.size() < remaining.size()) {
      if (ready.isEmpty()) {
        // A cycle: Check refuses these, but keep the order total and deterministic anyway.
        remaining.entrySet().stream()
            .filter(e -> e.getValue() > 0 && !order.contains(e.getKey()))
            .map(Map.Entry::getKey)
            .sorted()
            .findFirst()
            .ifPresent(
                n -> {
                  remaining.put(n, 0);
                  ready.add(n);
                });
      }
      String next = ready.pollFirst();
      order.add(next);
      for (String dependant : dependants.getOrDefault(next, List.of())) {
        if (remaining.merge(dependant, -1, Integer::sum) == 0 && !order.contains(dependant)) {
          ready.add(dependant);
        }
      }
    }
    return order;
  }

  /** Tarjan's strongly connected components, iterative so deep graphs do not overflow. */
  private List<Set<String>> components() {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new LinkedHashSet<>();
    List<Set<String>> result = new ArrayList<>();
    int[] counter = {0};
    for (String root : edges.keySet()) {
      if (index.containsKey(root)) {
        continue;
      }
      Deque<Object[]> work = new ArrayDeque<>();
      work.push(new Object[] {root, new ArrayList<>(edges.get(root)).iterator()});
      index.put(root, counter[0]);
      low.put(root, counter[0]++);
      stack.push(root);
      onStack.add(root);
      while (!work.isEmpty()) {
        Object[] frame = work.peek();
        String node = (String) frame[0];
        @SuppressWarnings("unchecked")
        var it = (java.util.Iterator<String>) frame[1];
        if (it.hasNext()) {
          String next = it.next();
          if (!index.containsKey(next)) {
            index.put(next, counter[0]);
            low.put(next, counter[0]++);
            stack.push(next);
            onStack.add(next);
            work.push(new Object[] {next, new ArrayList<>(edges.get(next)).iterator()});
          } else if (onStack.contains(next)) {
            low.put(node, Math.min(low.get(node), index.get(next)));
          }
        } else {
          work.pop();
          if (!work.isEmpty()) {
            String parent = (String) work.peek()[0];
            low.put(parent, Math.min(low.get(parent), low.get(node)));
          }
          if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
              member = stack.pop();
              onStack.remove(member);
              component.add(member);
            } while (!member.equals(node));
            result.add(component);
          }
        }
      }
    }
    return result;
  }

  /** A path start -> … -> start inside one component (breadth-first, shortest). */
  private List<String> cycleFrom(String start, Set<String> component) {
    Map<String, String> parent = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>();
    queue.add(start);
    while (!queue.isEmpty()) {
      String node = queue.poll();
      for (String next : edges.get(node)) {
        if (!component.contains(next)) {
          continue;
        }
        if (next.equals(start)) {
          List<String> path = new ArrayList<>();
          for (String at = node; at != null; at = parent.get(at)) {
            path.add(0, at);
          }
          path.add(start);
          return path;
        }
        if (!parent.containsKey(next) && !next.equals(start)) {
          parent.put(next, node);
          queue.add(next);
        }
      }
    }
    return List.of(start, start);
  }
}
