package io.weaver.load.write;

import static org.apache.spark.sql.functions.broadcast;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import io.weaver.metadata.DeletionMode;
import io.weaver.metadata.ManagedColumns;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;

/**
 * Where the target rows a direct write replaces live: one narrow pass over the target at the diff's
 * version, after the diff, for the replaced keys only.
 *
 * <p>Why a pass of its own and not columns of the diff: the diff shuffles every target row, and a
 * file path carried by each of them made the diff at 10M rows take 1.8× the whole lower bound
 * (docs/performance.md). Here the target is cut by the change set's key filter before anything
 * moves, and only the replaced rows reach the join with their keys.
 *
 * <p>Each located row holds its key, {@code ChangeDetector#OP}, {@link #FILE} and {@link #ROW}, its
 * identity value and insert time, and — when the change set soft-deletes rows — every other column
 * of the target row, which a soft delete writes again with its delete time.
 */
public final class TargetPositions {
  /** Where a target row lives ({@code _metadata.file_path}). */
  static final String FILE = "__weaver_t_file";

  /** The target row's position in its file ({@code _metadata.row_index}). */
  static final String ROW = "__weaver_t_row";

  private final LoadSpec spec;

  TargetPositions(LoadSpec spec) {
    this.spec = spec;
  }

  /**
   * The target rows of {@code keys} (key columns and {@code ChangeDetector#OP} of the updates,
   * revivals and soft deletes) located in {@code target}, checkpointed: the vectors, the new
   * versions and the soft deletes all read it. {@code keyFilter} (a predicate over the target
   * aliased {@code t}) narrows the scan when there are few enough keys to have one.
   */
  Dataset<Row> locate(
      Dataset<Row> keys, Dataset<Row> target, Optional<Column> keyFilter, ChangeCounts counts) {
    long replaced = counts.replaced();
    Dataset<Row> rows = target.as("t");
    if (keyFilter.isPresent()) {
      rows = rows.filter(keyFilter.get());
    }
    List<Column> read = new ArrayList<>();
    // A soft delete writes the whole row again; a hard delete only marks it.
    boolean softDeletes = counts.deleted() > 0 && spec.deletes() != DeletionMode.HARD;
    for (String name : readColumns(target, softDeletes)) {
      read.add(rows.col(ManagedValues.quote(name)));
    }
    Column metadata = rows.col("_metadata");
    read.add(metadata.getField("file_path").as(FILE));
    read.add(metadata.getField("row_index").as(ROW));
    return rows.select(read.toArray(new Column[0]))
        .join(
            replaced <= ChangeSet.BROADCAST_KEYS ? broadcast(keys) : keys,
            spec.primaryKey().toArray(new String[0]),
            "inner")
        .localCheckpoint(true, StorageLevel.MEMORY_AND_DISK());
  }

  /**
   * The target columns a located row needs: the key, identity value and insert time that a new
   * version keeps, and with {@code everything} (soft deletes to write) the whole row.
   */
  private List<String> readColumns(Dataset<Row> target, boolean everything) {
    Set<String> columns = new LinkedHashSet<>(spec.primaryKey());
    if (everything) {
      columns.addAll(List.of(target.schema().fieldNames()));
    } else {
      spec.identityColumn().ifPresent(columns::add);
      columns.add(ManagedColumns.INSERT_TIME);
    }
    return List.copyOf(columns);
  }
}
