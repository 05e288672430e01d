package io.weaver.load.write;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.diff.ChangeDetector;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.expectations.RowExpectations;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadSpec;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What a keyed load's diff leaves for its {@link LoadWriter}: the counts and the checkpoint of the
 * changing keys, from which the changing rows are fetched.
 *
 * @param expectations the Table's expectations, which name a quarantined row's violations
 * @param typed staging, typed to the target's schema (read again to fetch the changing rows)
 * @param changedKeys the diff's checkpoint of the keys that change (null when the diff did not run:
 *     nothing changed)
 * @param expectationCounts the rows violating each expectation, which the commit's receipt carries
 * @param version the target's version the diff read
 * @param staleNote the sentence the load's message ends with when rows were stale ("" otherwise)
 */
public record KeyedChanges(
    LoadRequest request,
    ChangeDetector detector,
    RowExpectations expectations,
    Dataset<Row> typed,
    Dataset<Row> changedKeys,
    ChangeCounts counts,
    List<ExpectationCount> expectationCounts,
    long version,
    String staleNote) {

  LoadSpec spec() {
    return request.spec();
  }

  /** The changing rows, fetched from staging by the changing keys ({@link ChangeSet#fetch}). */
  Dataset<Row> changeSet() {
    return ChangeSet.fetch(spec(), detector, typed, changedKeys, counts);
  }
}
