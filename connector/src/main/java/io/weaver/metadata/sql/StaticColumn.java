package io.weaver.metadata.sql;

import java.util.Objects;

/**
 * An output column of a result query whose name is visible in the SQL text.
 *
 * @param name the column name, unquoted with escapes undone
 * @param line 1-based file line of the token that names the column
 * @param column 1-based file column of that token
 */
public record StaticColumn(String name, int line, int column) {
  public StaticColumn {
    Objects.requireNonNull(name, "name");
  }
}
