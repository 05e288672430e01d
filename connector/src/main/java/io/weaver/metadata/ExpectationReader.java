package io.weaver.metadata;

import io.weaver.findings.FindingSink;
import io.weaver.findings.RuleIds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a Table's {@code Expectations} mapping: one entry per expectation, its name the key, its
 * value a mapping of {@code rule}, {@code on violation} and {@code max percentage}. The form is
 * checked here (rule {@code expectations}); whether a rule means something for the Table's columns
 * is Check's ({@code expectation-rule}), which needs the shape.
 */
final class ExpectationReader {
  private final FindingSink sink;
  private final Values values;

  ExpectationReader(FindingSink sink, Values values) {
    this.sink = sink;
    this.values = values;
  }

  List<Expectation> read(YamlNode.Entry entry) {
    Optional<YamlNode.Mapping> mapping = values.mapping(entry);
    if (mapping.isEmpty()) {
      return List.of();
    }
    List<Expectation> result = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (YamlNode.Entry one : mapping.get().entries()) {
      String name = one.key().strip();
      if (name.isEmpty()) {
        sink.error(RuleIds.EXPECTATIONS, one.keyPos(), "an expectation has an empty name; name it");
        continue;
      }
      String earlier = seen.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
      if (earlier != null) {
        sink.error(
            RuleIds.EXPECTATIONS,
            one.keyPos(),
            "expectation '"
                + name
                + "' repeats '"
                + earlier
                + "' (names may not differ only in case); rename or remove one");
        continue;
      }
      expectation(name, one).ifPresent(result::add);
    }
    return result;
  }

  private Optional<Expectation> expectation(String name, YamlNode.Entry entry) {
    if (!(entry.value() instanceof YamlNode.Mapping body) || body.entries().isEmpty()) {
      sink.error(
          RuleIds.EXPECTATIONS,
          entry.value().pos(),
          "expectation '"
              + name
              + "' must be a mapping with a 'rule' (and optionally 'on violation' and 'max"
              + " percentage'), not "
              + entry.value().describe());
      return Optional.empty();
    }
    Map<String, YamlNode.Entry> keys = new HashMap<>();
    boolean ok = true;
    for (YamlNode.Entry key : body.entries()) {
      if (!TableKeys.EXPECTATION.contains(key.key())) {
        sink.error(
            RuleIds.EXPECTATIONS,
            key.keyPos(),
            "expectation '"
                + name
                + "' has unknown key '"
                + key.key()
                + "'"
                + TableKeys.suggest(key.key(), TableKeys.EXPECTATION)
                    .map(s -> "; did you mean '" + s + "'?")
                    .orElse("; use only: " + String.join(", ", TableKeys.EXPECTATION)));
        ok = false;
      } else if (keys.putIfAbsent(key.key(), key) != null) {
        sink.error(
            RuleIds.EXPECTATIONS,
            key.keyPos(),
            "expectation '" + name + "' sets '" + key.key() + "' twice; keep one");
        ok = false;
      }
    }
    YamlNode.Entry ruleEntry = keys.get(TableKeys.RULE);
    Optional<String> rule = Optional.empty();
    if (ruleEntry == null) {
      sink.error(
          RuleIds.EXPECTATIONS,
          entry.keyPos(),
          "expectation '"
              + name
              + "' has no 'rule': write a boolean expression over the business columns, e.g."
              + " 'rule: weight_kg > 0'");
    } else {
      rule = values.text(ruleEntry);
    }
    Expectation.Action action = Expectation.Action.FAIL;
    YamlNode.Entry actionEntry = keys.get(TableKeys.ON_VIOLATION);
    if (actionEntry != null) {
      Optional<Expectation.Action> parsed =
          actionEntry.value() instanceof YamlNode.Scalar s
              ? Expectation.Action.of(s.text().strip())
              : Optional.empty();
      if (parsed.isEmpty()) {
        sink.error(
            RuleIds.EXPECTATIONS,
            actionEntry.value().pos(),
            "expectation '"
                + name
                + "': 'on violation' must be warn, quarantine or fail, not "
                + actionEntry.value().describe());
        ok = false;
      } else {
        action = parsed.get();
      }
    }
    Optional<Double> ceiling = Optional.empty();
    YamlNode.Entry ceilingEntry = keys.get(TableKeys.MAX_PERCENTAGE);
    if (ceilingEntry != null) {
      ceiling = percentage(name, ceilingEntry);
      ok &= ceiling.isPresent();
      if (ceiling.isPresent() && action != Expectation.Action.QUARANTINE) {
        sink.error(
            RuleIds.EXPECTATIONS,
            ceilingEntry.keyPos(),
            "expectation '"
                + name
                + "': 'max percentage' applies only to 'on violation: quarantine'; remove it or"
                + " quarantine");
        ok = false;
      }
    }
    if (rule.isEmpty() || !ok) {
      return Optional.empty();
    }
    return Optional.of(
        new Expectation(
            name, rule.get(), action, ceiling, entry.keyPos(), ruleEntry.value().pos()));
  }

  /** A number from 0 to 100, decimals allowed. */
  private Optional<Double> percentage(String name, YamlNode.Entry entry) {
    if (entry.value() instanceof YamlNode.Scalar s) {
      try {
        double value = Double.parseDouble(s.text().strip());
        if (value >= 0 && value <= 100 && !s.text().strip().matches("(?i).*[a-z].*")) {
          return Optional.of(value);
        }
      } catch (NumberFormatException ignored) {
        // reported below
      }
    }
    sink.error(
        RuleIds.EXPECTATIONS,
        entry.value().pos(),
        "expectation '"
            + name
            + "': 'max percentage' must be a number from 0 to 100, not "
            + entry.value().describe());
    return Optional.empty();
  }
}
