package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/**
 * BUILD WEAVER [ITEM i | TABLE t] [ALLOW DESTRUCTIVE]: create or alter tables to match
 * declarations.
 */
public final class BuildWeaverStatement extends WeaverStatement {
  private final Scope scope;
  private final boolean allowDestructive;

  public BuildWeaverStatement(Scope scope, boolean allowDestructive) {
    this.scope = Objects.requireNonNull(scope, "scope");
    this.allowDestructive = allowDestructive;
  }

  /** What to build. */
  public Scope scope() {
    return scope;
  }

  /** Whether changes that lose data are permitted. */
  public boolean allowDestructive() {
    return allowDestructive;
  }

  @Override
  public String keywords() {
    return "BUILD WEAVER";
  }

  @Override
  public List<Object> fields() {
    return List.of(scope, allowDestructive);
  }
}
