package io.weaver.sql.plans;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** CHECK WEAVER [WORKSPACE 'path']: validate every declaration of a workspace. */
public final class CheckWeaverStatement extends WeaverStatement {
  private final Optional<String> workspace;

  public CheckWeaverStatement(Optional<String> workspace) {
    this.workspace = Objects.requireNonNull(workspace, "workspace");
  }

  /** The workspace path or URI given in the statement; empty means the session conf. */
  public Optional<String> workspace() {
    return workspace;
  }

  @Override
  public String keywords() {
    return "CHECK WEAVER";
  }

  @Override
  public List<Object> fields() {
    return List.of(workspace);
  }
}
