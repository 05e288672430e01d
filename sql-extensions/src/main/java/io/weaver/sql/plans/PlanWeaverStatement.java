package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/**
 * PLAN WEAVER [ITEM i | TABLE t] [ALLOW DESTRUCTIVE] [WAIVE STABILITY GATES]: what BUILD and LOAD
 * would do, nothing written (docs/plan.md).
 */
public final class PlanWeaverStatement extends WeaverStatement {
  private final Scope scope;
  private final boolean allowDestructive;
  private final boolean waiveGates;

  public PlanWeaverStatement(Scope scope, boolean allowDestructive, boolean waiveGates) {
    this.scope = Objects.requireNonNull(scope, "scope");
    this.allowDestructive = allowDestructive;
    this.waiveGates = waiveGates;
  }

  /** What to plan. */
  public Scope scope() {
    return scope;
  }

  /** Plan Build as if changes that lose data were permitted. */
  public boolean allowDestructive() {
    return allowDestructive;
  }

  /** Plan the loads as if the stability gates were waived. */
  public boolean waiveGates() {
    return waiveGates;
  }

  @Override
  public String keywords() {
    return "PLAN WEAVER";
  }

  @Override
  public List<Object> fields() {
    return List.of(scope, allowDestructive, waiveGates);
  }
}
