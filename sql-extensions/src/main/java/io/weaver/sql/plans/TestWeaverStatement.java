package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;

/** TEST WEAVER [ITEM i | TABLE t]: run the declared tests. */
public final class TestWeaverStatement extends WeaverStatement {
  private final Scope scope;

  public TestWeaverStatement(Scope scope) {
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  /** What to test. */
  public Scope scope() {
    return scope;
  }

  @Override
  public String keywords() {
    return "TEST WEAVER";
  }

  @Override
  public List<Object> fields() {
    return List.of(scope);
  }
}
