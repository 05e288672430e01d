package io.weaver.metadata;

import io.weaver.findings.SourcePos;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** An ordered, non-empty set of distinct column names, as authored ({@code a, b}). */
public record ColumnSet(List<String> columns, SourcePos pos) {

  public ColumnSet {
    columns = List.copyOf(columns);
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a column set is never empty");
    }
  }

  public boolean contains(String column) {
    return columns.contains(column);
  }

  /** True when both name the same columns, in any order. */
  public boolean sameColumns(ColumnSet other) {
    return Set.copyOf(columns).equals(Set.copyOf(other.columns));
  }

  /** Lowercased members, for case-insensitive comparisons. */
  public Set<String> lowercase() {
    return columns.stream().map(c -> c.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
  }

  @Override
  public String toString() {
    return String.join(", ", columns);
  }
}
