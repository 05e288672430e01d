package io.weaver.metadata;

import io.weaver.findings.FindingSink;
import io.weaver.findings.RuleIds;
import io.weaver.findings.SourcePos;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Typed readers for header values. Each reports an {@code invalid-value} finding (or the rule the
 * caller names) at the value's position and returns empty when the value is unusable, so one bad
 * key never hides the findings of the others.
 */
final class Values {
  private static final Pattern DECIMAL = Pattern.compile("[-+]?[0-9]+");

  private final FindingSink sink;

  Values(FindingSink sink) {
    this.sink = sink;
  }

  /** Non-empty text; any scalar is taken as written. */
  Optional<String> text(YamlNode.Entry entry) {
    if (entry.value() instanceof YamlNode.Scalar s && s.type() != YamlNode.ScalarType.NULL) {
      if (!s.text().isBlank()) {
        return Optional.of(s.text().strip());
      }
    }
    sink.error(
        RuleIds.INVALID_VALUE,
        entry.value().pos(),
        "'" + entry.key() + "' must be non-empty text, not " + entry.value().describe());
    return Optional.empty();
  }

  /** A YAML boolean written {@code true} or {@code false}. */
  Optional<Boolean> bool(YamlNode.Entry entry) {
    if (entry.value() instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.BOOL) {
      String word = s.text().toLowerCase(java.util.Locale.ROOT);
      if (word.equals("true") || word.equals("false")) {
        return Optional.of(word.equals("true"));
      }
    }
    String hint =
        entry.value() instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING
            ? " (without quotes)"
            : "";
    sink.error(
        RuleIds.INVALID_VALUE,
        entry.value().pos(),
        "'"
            + entry.key()
            + "' must be the YAML boolean true or false"
            + hint
            + ", not "
            + entry.value().describe());
    return Optional.empty();
  }

  /** A whole decimal integer within {@code [min, max]}; booleans, floats and text are refused. */
  Optional<Long> wholeNumber(YamlNode.Entry entry, long min, long max) {
    String range = max == Long.MAX_VALUE ? "of at least " + min : "from " + min + " through " + max;
    if (entry.value() instanceof YamlNode.Scalar s
        && s.type() == YamlNode.ScalarType.INT
        && DECIMAL.matcher(s.text()).matches()) {
      try {
        long value = Long.parseLong(s.text());
        if (value >= min && value <= max) {
          return Optional.of(value);
        }
      } catch (NumberFormatException e) {
        // too large for a long: reported as out of range below
      }
    }
    sink.error(
        RuleIds.INVALID_VALUE,
        entry.value().pos(),
        "'"
            + entry.key()
            + "' must be a whole number "
            + range
            + ", not "
            + entry.value().describe());
    return Optional.empty();
  }

  /** One comma-separated, ordered, non-empty set of distinct column names. */
  Optional<ColumnSet> columnSet(YamlNode.Entry entry, String repeatRule) {
    return columnSet(entry.key(), entry.value(), repeatRule);
  }

  Optional<ColumnSet> columnSet(String key, YamlNode value, String repeatRule) {
    if (!(value instanceof YamlNode.Scalar s)
        || s.type() == YamlNode.ScalarType.NULL
        || s.text().isBlank()) {
      sink.error(
          RuleIds.INVALID_VALUE,
          value.pos(),
          "'" + key + "' must be comma-separated column names (a, b), not " + value.describe());
      return Optional.empty();
    }
    return splitColumns(key, s.text(), s.pos(), repeatRule);
  }

  /** Splits {@code a, b} into a column set, reporting empty and repeated members. */
  Optional<ColumnSet> splitColumns(String key, String text, SourcePos pos, String repeatRule) {
    List<String> columns = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    boolean ok = true;
    for (String raw : text.split(",", -1)) {
      String column = raw.strip();
      if (column.isEmpty()) {
        sink.error(
            RuleIds.INVALID_VALUE,
            pos,
            "'" + key + "' has an empty member in '" + text + "'; remove the extra comma");
        ok = false;
      } else if (!seen.add(column)) {
        sink.error(
            repeatRule,
            pos,
            "'" + key + "' repeats column '" + column + "'; list each column once");
        ok = false;
      } else {
        columns.add(column);
      }
    }
    return ok && !columns.isEmpty() ? Optional.of(new ColumnSet(columns, pos)) : Optional.empty();
  }

  /** A YAML list of distinct, non-empty text items; {@code allowEmpty} accepts {@code []}. */
  Optional<List<YamlNode.Scalar>> textList(YamlNode.Entry entry, boolean allowEmpty) {
    if (!(entry.value() instanceof YamlNode.Sequence seq)) {
      sink.error(
          RuleIds.INVALID_VALUE,
          entry.value().pos(),
          "'"
              + entry.key()
              + "' must be a YAML list ("
              + (allowEmpty ? "[] or " : "")
              + "- item lines), not "
              + entry.value().describe());
      return Optional.empty();
    }
    if (seq.items().isEmpty() && !allowEmpty) {
      sink.error(
          RuleIds.INVALID_VALUE,
          seq.pos(),
          "'" + entry.key() + "' is an empty list; remove the key or list at least one item");
      return Optional.empty();
    }
    List<YamlNode.Scalar> items = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    boolean ok = true;
    for (YamlNode item : seq.items()) {
      if (!(item instanceof YamlNode.Scalar s)
          || s.type() == YamlNode.ScalarType.NULL
          || s.text().isBlank()) {
        sink.error(
            RuleIds.INVALID_VALUE,
            item.pos(),
            "every item of '" + entry.key() + "' must be non-empty text, not " + item.describe());
        ok = false;
      } else if (!seen.add(s.text().strip())) {
        sink.error(
            RuleIds.INVALID_VALUE,
            item.pos(),
            "'" + entry.key() + "' lists '" + s.text().strip() + "' twice; list it once");
        ok = false;
      } else {
        items.add(new YamlNode.Scalar(s.text().strip(), s.type(), s.pos()));
      }
    }
    return ok ? Optional.of(List.copyOf(items)) : Optional.empty();
  }

  /** A non-empty mapping. */
  Optional<YamlNode.Mapping> mapping(YamlNode.Entry entry) {
    if (entry.value() instanceof YamlNode.Mapping m && !m.entries().isEmpty()) {
      return Optional.of(m);
    }
    sink.error(
        RuleIds.INVALID_VALUE,
        entry.value().pos(),
        "'"
            + entry.key()
            + "' must be a non-empty mapping (name: value lines), not "
            + entry.value().describe());
    return Optional.empty();
  }
}
