package io.weaver.plan;

import io.weaver.install.BuildOutcome;
import io.weaver.load.LoadPlan;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code weaver run} would do with one Table (docs/plan.md): Build's action and the load's
 * predicted outcome, nothing of either written.
 */
public record TablePlan(String tableId, BuildOutcome build, LoadPlan load) {

  /** The Table would be refused or fail, in Build or in Load (exit code 1). */
  public boolean isFailure() {
    return build.isFailure() || load.isFailure();
  }

  /**
   * The plan as one flat ordered map, the same names everywhere: {@code PLAN WEAVER}'s columns, an
   * entry of {@code weaver plan --format json}'s {@code tables}, a row of {@code Workspace.plan}.
   */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table_id", tableId);
    m.put("build_action", build.action());
    m.put("build_message", build.message());
    Map<String, Object> l = load.toMap();
    l.remove("table_id");
    m.put("load_status", l.remove("status"));
    m.putAll(l);
    return m;
  }
}
