package io.weaver.findings;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One problem Check found in a workspace.
 *
 * @param path the file, relative to the workspace root, with {@code /} separators
 * @param line 1-based line, 0 when unknown
 * @param column 1-based column, 0 when unknown
 * @param severity error or warning
 * @param rule the stable rule id (docs/table-contract.md, "Check"), e.g. {@code unknown-key}
 * @param message what is wrong and what to change
 */
public record Finding(
    String path, int line, int column, Severity severity, String rule, String message) {

  /** Report order: by path, then position, then rule. */
  public static final Comparator<Finding> ORDER =
      Comparator.comparing(Finding::path)
          .thenComparingInt(Finding::line)
          .thenComparingInt(Finding::column)
          .thenComparing(Finding::rule)
          .thenComparing(Finding::message);

  public Finding {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(message, "message");
    if (line < 0 || column < 0) {
      throw new IllegalArgumentException("line and column must be >= 0");
    }
  }

  /** The compiler-style text form: {@code path:line:column: severity: message [rule]}. */
  public String toText() {
    return path
        + ":"
        + line
        + ":"
        + column
        + ": "
        + severity.word()
        + ": "
        + message
        + " ["
        + rule
        + "]";
  }

  /** The finding as the JSON object every interface reports it as (keys in this order). */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", path());
    m.put("line", line());
    m.put("column", column());
    m.put("severity", severity().word());
    m.put("rule", rule());
    m.put("message", message());
    return m;
  }
}
