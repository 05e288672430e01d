package io.weaver.catalyst.rules;

import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A read by Weaver name ({@code <Item>.<Schema>.<Object>} of an item catalog), marked by {@link
 * MarkNameReads} before the name is resolved and decided by {@link ShowLiveRows} once it is.
 *
 * <p>The mark is an always-true {@code Filter('weaver.nameRead:…' = 'weaver.nameRead:…')} right
 * above the unresolved name. It carries what the read asked for, because Delta's analysis rule
 * drops a relation's read options when it turns Delta's V2 table into its V1 relation, which it may
 * do before Weaver's rule runs (extension order). Left in a plan (an engine session, or no
 * open-source Delta), it is a filter the optimizer removes.
 *
 * @param allRows the read asked for every row ({@code includeDeleted=true} or a change feed)
 * @param minVersion the read's {@code minVersion} option, as written
 */
record NameRead(boolean allRows, Optional<String> minVersion) {
  private static final String PREFIX = "weaver.nameRead:";

  /** What a read with these options asks for. */
  static NameRead of(CaseInsensitiveStringMap options, TableContract contract) {
    boolean all =
        isTrue(options, contract.includeDeletedOption())
            || isTrue(options, "readChangeFeed")
            || isTrue(options, "readChangeData");
    return new NameRead(all, Optional.ofNullable(options.get(contract.minVersionOption())));
  }

  private static boolean isTrue(CaseInsensitiveStringMap options, String name) {
    return "true".equalsIgnoreCase(options.get(name));
  }

  /** {@code read} under this mark. */
  Filter above(LogicalPlan read) {
    Literal text = Literal.create(text(), DataTypes.StringType);
    return new Filter(new EqualTo(text, text), read);
  }

  /** The mark {@code plan} is, when it is one. */
  static Optional<NameRead> markedBy(LogicalPlan plan) {
    if (!(plan instanceof Filter filter)
        || !(filter.condition() instanceof EqualTo eq)
        || !(eq.left() instanceof Literal left)
        || !eq.left().semanticEquals(eq.right())
        || left.value() == null) {
      return Optional.empty();
    }
    String text = left.value().toString();
    if (!text.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String[] parts = text.substring(PREFIX.length()).split(":", 2);
    return Optional.of(
        new NameRead(
            "all".equals(parts[0]), parts.length > 1 ? Optional.of(parts[1]) : Optional.empty()));
  }

  private String text() {
    return PREFIX + (allRows ? "all" : "live") + minVersion.map(v -> ":" + v).orElse("");
  }
}
