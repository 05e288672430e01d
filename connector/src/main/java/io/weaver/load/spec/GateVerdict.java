package io.weaver.load.spec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One stability gate measured for one load: the rows it counts against the target's live rows
 * before the load, its threshold and what it decided (docs/plan.md).
 *
 * @param gate {@code delete} or {@code update}
 * @param percent {@code 100 * rows / liveRows}; 0 when there are no live rows
 * @param verdict {@code pass}, {@code refuse}, {@code waived} (it would refuse; the load waives the
 *     gates), or {@code off} (threshold 100, or fewer live rows than the stability row threshold:
 *     the gate does not apply)
 */
public record GateVerdict(
    String gate, long rows, long liveRows, int threshold, double percent, String verdict) {

  public static final String PASS = "pass";
  public static final String REFUSE = "refuse";
  public static final String WAIVED = "waived";
  public static final String OFF = "off";

  /** Whether this gate stops the load. */
  public boolean refuses() {
    return verdict.equals(REFUSE);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = values();
    m.put("percent", Math.round(percent * 100) / 100.0);
    return m;
  }

  /** The gate as an ordered map with its exact percentage (a plan's SQL row). */
  public Map<String, Object> values() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("gate", gate);
    m.put("rows", rows);
    m.put("live_rows", liveRows);
    m.put("percent", percent);
    m.put("threshold", threshold);
    m.put("verdict", verdict);
    return m;
  }
}
