package io.weaver.datatest;

import io.weaver.findings.Severity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one test (docs/table-contract.md, "Test").
 *
 * @param testId {@code Schema.Object:<kind>[:<n>|:<column>]} for generated tests, the authored
 *     {@code Test ID} otherwise
 * @param tableId the item-qualified Table, or the item for an authored test
 * @param kind {@code primary-key}, {@code unique-key}, {@code not-null}, {@code foreign-key} or
 *     {@code authored}
 * @param severity {@code error} or {@code warning}
 * @param status {@code passed} or {@code failed}
 * @param violations violating rows counted (0 when the test could not run)
 * @param sample at most {@value #SAMPLE_SIZE} violating rows, as JSON-ready maps
 * @param message why a test could not run (not built, a query error), else null
 */
public record DataTestResult(
    String testId,
    String tableId,
    String kind,
    String severity,
    String status,
    long violations,
    List<Map<String, Object>> sample,
    String message) {

  public static final String PRIMARY_KEY = "primary-key";
  public static final String UNIQUE_KEY = "unique-key";
  public static final String NOT_NULL = "not-null";
  public static final String FOREIGN_KEY = "foreign-key";
  public static final String AUTHORED = "authored";
  public static final String PASSED = "passed";
  public static final String FAILED = "failed";
  public static final int SAMPLE_SIZE = 5;

  public DataTestResult {
    sample = List.copyOf(sample);
  }

  public boolean failed() {
    return status.equals(FAILED);
  }

  /** A failed test of severity error: what makes {@code weaver test} exit 1. */
  public boolean isErrorFailure() {
    return failed() && severity.equals(Severity.ERROR.word());
  }

  /**
   * The JSON object of {@code weaver test --format json}, in the field order of
   * docs/table-contract.md, "Test".
   */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("test_id", testId);
    m.put("table_id", tableId);
    m.put("kind", kind);
    m.put("severity", severity);
    m.put("status", status);
    m.put("violations", violations);
    m.put("sample", sample);
    m.put("message", message);
    return m;
  }
}
