package io.weaver.load;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The result of one load (the data half of a {@code _.LoadHistory} row).
 *
 * @param status {@code succeeded}, {@code no_work}, {@code refused} or {@code failed}
 * @param deltaVersion the table version after the load (the current one when nothing was written)
 * @param committed whether this load made a Delta commit
 * @param rejections rows for {@code _.LoadRejection} ({@code reason, key_json, row_json}); the
 *     caller writes them
 */
public record LoadOutcome(
    String status,
    long rowsInserted,
    long rowsUpdated,
    long rowsDeleted,
    long rowsRevived,
    long rowsUnchanged,
    long rowsRejected,
    long targetLiveRowsBefore,
    long targetLiveRowsAfter,
    long deltaVersion,
    boolean committed,
    String message,
    List<String> warnings,
    Optional<Dataset<Row>> rejections) {

  public static final String SUCCEEDED = "succeeded";
  public static final String NO_WORK = "no_work";
  public static final String REFUSED = "refused";
  public static final String FAILED = "failed";

  public LoadOutcome {
    warnings = List.copyOf(warnings);
    rejections = rejections == null ? Optional.empty() : rejections;
  }

  static LoadOutcome withoutChanges(
      String status, long liveRows, long version, String message, List<String> warnings) {
    return new LoadOutcome(
        status,
        0,
        0,
        0,
        0,
        0,
        0,
        liveRows,
        liveRows,
        version,
        false,
        message,
        warnings,
        Optional.empty());
  }
}
