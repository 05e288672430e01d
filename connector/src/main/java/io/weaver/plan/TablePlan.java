package io.weaver.plan;

import io.weaver.build.BuildOutcome;
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

  /** The plan as an ordered map (one entry of {@code --format json}'s {@code tables}). */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table_id", tableId);
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("action", build.action());
    b.put("message", build.message());
    m.put("build", b);
    Map<String, Object> l = load.toMap();
    l.remove("table_id");
    m.put("load", l);
    return m;
  }
}
