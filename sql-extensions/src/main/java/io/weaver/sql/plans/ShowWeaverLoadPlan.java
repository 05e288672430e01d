package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/**
 * SHOW WEAVER LOAD PLAN [ITEM i | TABLE t]: the Tables a load of the scope loads, in load order,
 * with the Tables each depends on.
 */
public final class ShowWeaverLoadPlan extends WeaverStatement {
  private final Scope scope;

  public ShowWeaverLoadPlan(Scope scope) {
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  /** The Tables covered. */
  public Scope scope() {
    return scope;
  }

  @Override
  public String keywords() {
    return "SHOW WEAVER LOAD PLAN";
  }

  @Override
  public List<Object> fields() {
    return List.of(scope);
  }
}
