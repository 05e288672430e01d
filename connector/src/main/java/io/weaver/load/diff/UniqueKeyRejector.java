package io.weaver.load.diff;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.hash;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.when;

import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;

/**
 * Unique keys (docs/table-contract.md, "Load"): for each unique key in declaration order, over the
 * rows that would be live after the load, an incoming row (insert, update, revive) whose non-null
 * unique-key value is held by another live row is rejected with reason {@code unique-key:<n>}; the
 * next unique key is checked over what remains. A rejected update leaves the target row's old
 * values live; an update that keeps its row's current value is never rejected for it (the newcomer
 * is).
 */
public final class UniqueKeyRejector {
  public static final String REASON = "__weaver_reject";

  private final LoadSpec spec;

  public UniqueKeyRejector(LoadSpec spec) {
    this.spec = spec;
  }

  public Dataset<Row> apply(Dataset<Row> classified) {
    Dataset<Row> rows = classified.withColumn(REASON, lit(null).cast(DataTypes.StringType));
    for (int i = 0; i < spec.uniqueKeys().size(); i++) {
      rows = rejectDuplicates(rows, spec.uniqueKeys().get(i), "unique-key:" + (i + 1));
    }
    return rows;
  }

  private Dataset<Row> rejectDuplicates(Dataset<Row> rows, List<String> key, String reason) {
    Column op = col(ChangeDetector.OP);
    Column incoming =
        op.isin(ChangeDetector.INSERT, ChangeDetector.UPDATE, ChangeDetector.REVIVE)
            .and(col(REASON).isNull());
    // A superseded staging row joined the same target row as its key's newest row: the target's
    // values are held once, by the newest row's side.
    Column targetStays =
        coalesce(col(ChangeDetector.TARGET_LIVE), lit(false))
            .and(op.notEqual(ChangeDetector.DELETE))
            .and(not(incoming))
            .and(not(ChangeDetector.superseded(spec)));
    List<Column> values = new ArrayList<>();
    Column allPresent = lit(true);
    // An update that keeps the value its live row already holds is the incumbent: it counts as
    // a holder but is never the one rejected.
    Column incumbent = op.equalTo(ChangeDetector.UPDATE);
    for (String column : key) {
      Column value = when(incoming, col(ManagedValues.quote(column)));
      value =
          spec.primaryKey().contains(column)
              ? value.when(targetStays, col(ManagedValues.quote(column)))
              : value.when(targetStays, col(ChangeDetector.TARGET_PREFIX + column));
      values.add(value);
      allPresent = allPresent.and(value.isNotNull());
      if (!spec.primaryKey().contains(column)) {
        incumbent =
            incumbent.and(
                col(ManagedValues.quote(column))
                    .eqNullSafe(col(ChangeDetector.TARGET_PREFIX + column)));
      }
    }
    // Rows without a complete value (deleted, not live, null members) never collide; spreading
    // them by key hash keeps them out of one huge window partition.
    List<Column> partition = new ArrayList<>(values);
    partition.add(allPresent);
    partition.add(
        when(
            not(allPresent),
            hash(
                spec.primaryKey().stream()
                    .map(k -> col(ManagedValues.quote(k)))
                    .toArray(Column[]::new))));
    Column holders = count(lit(1)).over(Window.partitionBy(partition.toArray(new Column[0])));
    return rows.withColumn(
        REASON,
        when(incoming.and(not(incumbent)).and(allPresent).and(holders.gt(1)), lit(reason))
            .otherwise(col(REASON)));
  }
}
