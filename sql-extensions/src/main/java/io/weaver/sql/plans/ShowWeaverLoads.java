package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** SHOW WEAVER LOADS [FOR t] [LIMIT n]: recent loads, newest first. */
public final class ShowWeaverLoads extends WeaverStatement {
  private final Optional<TableIdentity> table;
  private final Optional<Integer> limit;

  public ShowWeaverLoads(Optional<TableIdentity> table, Optional<Integer> limit) {
    this.table = Objects.requireNonNull(table, "table");
    this.limit = Objects.requireNonNull(limit, "limit");
  }

  /** The Table whose loads are shown; empty shows all. */
  public Optional<TableIdentity> table() {
    return table;
  }

  /** The most loads to show, positive; empty means no limit. */
  public Optional<Integer> limit() {
    return limit;
  }

  @Override
  public String keywords() {
    return "SHOW WEAVER LOADS";
  }

  @Override
  public List<Object> fields() {
    return List.of(table, limit);
  }
}
