package io.weaver.load.recovery;

import io.weaver.catalogue.NamedRow;
import io.weaver.load.records.LoadRecorder;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;

/**
 * A load under a caller-chosen load id whose outcome the caller does not know: when that id is in
 * the Table's history already, the retry writes nothing and says what the first attempt did.
 */
public final class LoadIdRetry {
  private LoadIdRetry() {}

  public static Optional<LoadResult> earlier(
      LoadRecorder recorder, String name, String loadId, Instant started, Instant loadTs) {
    List<Row> earlier = recorder.historyOf(loadId);
    return earlier.isEmpty()
        ? Optional.empty()
        : Optional.of(retried(name, loadId, earlier.get(0), started, loadTs));
  }

  private static LoadResult retried(
      String name, String loadId, Row earlier, Instant started, Instant loadTs) {
    NamedRow row = NamedRow.of(earlier);
    LoadStatus status = LoadStatus.of(row.string("status"));
    long version = row.longOr("delta_version", -1);
    if (status.applied()) {
      return LoadResult.without(
          loadId,
          name,
          status == LoadStatus.NO_WORK ? LoadStatus.NO_WORK : LoadStatus.SUCCEEDED,
          version,
          name
              + ": load "
              + loadId
              + " was already applied (history: "
              + status
              + ", Delta version "
              + version
              + "); this retry wrote nothing",
          started,
          loadTs);
    }
    return LoadResult.without(
        loadId,
        name,
        LoadStatus.FAILED,
        version,
        name
            + ": load id "
            + loadId
            + " was already used by a load that ended "
            + status
            + " (nothing was applied then or now); a load id names one attempt, so run the load"
            + " again with a new load id or none",
        started,
        loadTs);
  }
}
