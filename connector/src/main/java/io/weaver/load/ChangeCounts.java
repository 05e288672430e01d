package io.weaver.load;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;

import java.util.Map;
import org.apache.spark.sql.Column;

/** The counts of one keyed load, observed once over the classified rows. */
record ChangeCounts(
    long inserted,
    long updated,
    long revived,
    long deleted,
    long unchanged,
    long rejected,
    long liveBefore) {

  /** Aggregates for {@code Dataset.observe}, evaluated in the job that builds the change set. */
  static Column[] observed() {
    Column op = col(ChangeDetector.OP);
    Column accepted = col(UniqueKeyRejector.REASON).isNull();
    return new Column[] {
      count_if(op.equalTo(ChangeDetector.INSERT).and(accepted)).as("inserted"),
      count_if(op.equalTo(ChangeDetector.UPDATE).and(accepted)).as("updated"),
      count_if(op.equalTo(ChangeDetector.REVIVE).and(accepted)).as("revived"),
      count_if(op.equalTo(ChangeDetector.DELETE)).as("deleted"),
      count_if(op.equalTo(ChangeDetector.UNCHANGED)).as("unchanged"),
      count_if(not(accepted)).as("rejected"),
      count_if(coalesce(col(ChangeDetector.TARGET_LIVE), lit(false))).as("live_before")
    };
  }

  static ChangeCounts from(Map<String, Object> metrics) {
    return new ChangeCounts(
        get(metrics, "inserted"),
        get(metrics, "updated"),
        get(metrics, "revived"),
        get(metrics, "deleted"),
        get(metrics, "unchanged"),
        get(metrics, "rejected"),
        get(metrics, "live_before"));
  }

  private static long get(Map<String, Object> metrics, String name) {
    Object value = metrics.get(name);
    if (value == null) {
      throw new IllegalStateException("observed metric " + name + " is missing: " + metrics);
    }
    return ((Number) value).longValue();
  }

  /** Rows the MERGE will write. */
  long changed() {
    return inserted + updated + revived + deleted;
  }

  long liveAfter() {
    return liveBefore + inserted + revived - deleted;
  }
}
