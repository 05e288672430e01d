package io.weaver.load.write;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.delta.tables.DeltaMergeBuilder;
import io.delta.tables.DeltaTable;
import io.weaver.load.diff.ChangeDetector;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import io.weaver.metadata.DeletionMode;
import io.weaver.metadata.ManagedColumns;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The one MERGE of a keyed load, whose source holds only the changed rows.
 *
 * <p>The source must be materialised by the caller (the engine checkpoints it): Delta's own source
 * materialisation is turned off in the commit session.
 *
 * <p>Column maps are explicit and never name the identity column: Delta generates it on insert and
 * refuses both {@code insertAll} (unresolved identity) and explicit identity values.
 */
public final class KeyedMerge {
  private final LoadSpec spec;

  static final String MATERIALIZE_SOURCE = "spark.databricks.delta.merge.materializeSource";

  KeyedMerge(LoadSpec spec) {
    this.spec = spec;
  }

  /** Result of the MERGE: whether Delta applied it or skipped it as an already-seen txn. */
  record Result(boolean applied, long version, Row metrics) {}

  /**
   * {@code targetKeys}, when present, is a predicate on the target alone that holds for every
   * target row the change set matches (a Bloom filter of its keys): Spark pushes it below the
   * MERGE's joins, so they shuffle and join about the rows that change, not every row of the
   * touched files.
   */
  Result run(
      SparkSession commitSession,
      Dataset<Row> changes,
      LoadRequest request,
      java.util.Optional<Column> targetKeys) {
    // The engine hands over a checkpointed change set: Delta need not copy it once more.
    commitSession.conf().set(MATERIALIZE_SOURCE, "none");
    Column loadTs = ManagedValues.timestamp(request.loadTimestamp());
    Column condition = lit(true);
    for (String key : spec.primaryKey()) {
      condition = condition.and(target(key).equalTo(source(key)));
    }
    if (targetKeys.isPresent()) {
      condition = condition.and(targetKeys.get());
    }
    Column op = source(ChangeDetector.OP);

    Map<String, Column> update = new LinkedHashMap<>();
    for (String name : nonKeyColumns()) {
      update.put(ManagedValues.quote(name), source(name));
    }
    update.put(ManagedColumns.UPDATE_TIME, loadTs);
    update.put(ManagedColumns.SIGNATURE, source(ChangeDetector.SIG));

    Map<String, Column> revive = new LinkedHashMap<>(update);
    revive.put(ManagedColumns.DELETE_TIME, ManagedValues.liveSentinel());

    Map<String, Column> delete = Map.of(ManagedColumns.DELETE_TIME, loadTs);

    Map<String, Column> insert = new LinkedHashMap<>();
    for (String name : spec.businessSchema().fieldNames()) {
      insert.put(ManagedValues.quote(name), source(name));
    }
    insert.put(ManagedColumns.INSERT_TIME, loadTs);
    insert.put(ManagedColumns.UPDATE_TIME, loadTs);
    insert.put(ManagedColumns.DELETE_TIME, ManagedValues.liveSentinel());
    insert.put(ManagedColumns.SIGNATURE, source(ChangeDetector.SIG));

    DeltaMergeBuilder merge =
        DeltaTable.forPath(commitSession, spec.targetPath())
            .as("t")
            .merge(changes.as("s"), condition)
            .whenMatched(op.equalTo(ChangeDetector.UPDATE))
            .update(update)
            .whenMatched(op.equalTo(ChangeDetector.REVIVE))
            .update(revive);
    merge =
        spec.deletes() == DeletionMode.HARD
            ? merge.whenMatched(op.equalTo(ChangeDetector.DELETE)).delete()
            : merge.whenMatched(op.equalTo(ChangeDetector.DELETE)).update(delete);
    List<Row> metrics =
        merge
            .whenNotMatched(op.equalTo(ChangeDetector.INSERT))
            .insert(insert)
            .execute()
            .collectAsList();
    long version =
        DeltaLogProbe.latest(commitSession, spec.tableName(), spec.targetPath()).version();
    // Delta skips a write whose txnVersion it has already seen for the app id: no metrics row.
    return new Result(!metrics.isEmpty(), version, metrics.isEmpty() ? null : metrics.get(0));
  }

  private List<String> nonKeyColumns() {
    return java.util.Arrays.stream(spec.businessSchema().fieldNames())
        .filter(c -> !spec.primaryKey().contains(c))
        .toList();
  }

  static Column target(String name) {
    return col("t." + ManagedValues.quote(name));
  }

  private static Column source(String name) {
    return col("s." + ManagedValues.quote(name));
  }
}
