package io.weaver.load;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What a keyed load's diff leaves for its {@link LoadWriter}: the counts and the checkpoint of the
 * changing keys, from which the changing rows are fetched.
 *
 * @param typed staging, typed to the target's schema (read again to fetch the changing rows)
 * @param changedKeys the diff's checkpoint of the keys that change (null when the diff did not run:
 *     nothing changed)
 * @param version the target's version the diff read
 * @param carried whether {@code changedKeys} holds the changing rows' values ({@link
 *     ChangeDetector#ROW}), which then are not fetched again
 */
record KeyedChanges(
    LoadRequest request,
    ChangeDetector detector,
    Dataset<Row> typed,
    Dataset<Row> changedKeys,
    ChangeCounts counts,
    long version,
    boolean carried) {

  LoadSpec spec() {
    return request.spec();
  }

  /**
   * The changing rows: from the diff's checkpoint when it carried them ({@link
   * ChangeSet#complete}), else fetched from staging by the changing keys ({@link ChangeSet#fetch}).
   */
  Dataset<Row> changeSet() {
    return carried
        ? ChangeSet.complete(spec(), detector, typed, changedKeys, counts)
        : ChangeSet.fetch(spec(), detector, typed, changedKeys, counts);
  }
}
