package io.weaver.load.expectations;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many staging rows of one load violated one expectation (a row of {@code _.LoadExpectation}).
 *
 * @param action {@code warn}, {@code quarantine} or {@code fail}
 * @param sampleKeys up to {@value RowExpectations#WARN_SAMPLE} keys (as JSON) of violating rows,
 *     for {@code warn}; empty otherwise (quarantined rows are kept whole, a failing load names its
 *     keys in its message)
 */
public record ExpectationCount(
    String expectation, String action, long rowsViolating, List<String> sampleKeys) {

  public ExpectationCount {
    sampleKeys = List.copyOf(sampleKeys);
  }

  /** The count as an ordered map (JSON output, SQL rows). */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("expectation", expectation);
    m.put("action", action);
    m.put("rows_violating", rowsViolating);
    m.put("sample_keys", sampleKeys);
    return m;
  }
}
