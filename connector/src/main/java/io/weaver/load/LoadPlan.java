package io.weaver.load;

import io.weaver.catalogue.LoadResultField;
import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.ResultValues;
import io.weaver.load.spec.GateVerdict;
import io.weaver.load.spec.LoadStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a load of one Table would do, computed by running the load to its gates and stopping there
 * (docs/plan.md): nothing of it is written.
 *
 * @param tableId item-qualified, {@code Item.Schema.Object}
 * @param status the status the load would end with ({@code succeeded}, {@code refused}, {@code
 *     failed}, {@code no_work}, {@code skipped})
 * @param counts the predicted counts (a refused plan keeps those its gates measured)
 * @param deltaVersion the target's version the plan read (-1 when it read none)
 * @param gates each stability gate's measurement; empty when the plan did not reach the gates
 * @param rejectionSample up to {@link #SAMPLE} rows the load would reject ({@code reason}, {@code
 *     key_json}, {@code row_json})
 * @param notes what the plan assumed, e.g. that a dependency's rows are planned as they are now
 * @param expectations the rows that would violate each expectation (exact: the load's own counts)
 * @param historyVersions the versions the load would write into the Table's history (those of
 *     earlier committed loads the history lacks, then its own); empty when it keeps no history
 */
public record LoadPlan(
    String tableId,
    LoadStatus status,
    ChangeCounts counts,
    long deltaVersion,
    List<GateVerdict> gates,
    List<Map<String, Object>> rejectionSample,
    String message,
    List<String> warnings,
    List<String> notes,
    List<ExpectationCount> expectations,
    OptionalLong historyVersions) {

  /** How many rejected rows a plan shows. */
  public static final int SAMPLE = 20;

  public LoadPlan {
    gates = List.copyOf(gates);
    rejectionSample = List.copyOf(rejectionSample);
    warnings = List.copyOf(warnings);
    notes = List.copyOf(notes);
    expectations = List.copyOf(expectations);
  }

  /** A plan that stopped before counting anything (not built, skipped, failed early). */
  static LoadPlan without(
      String tableId, LoadStatus status, long deltaVersion, String message, List<String> notes) {
    return new LoadPlan(
        tableId,
        status,
        ChangeCounts.none(0),
        deltaVersion,
        List.of(),
        List.of(),
        message,
        List.of(),
        notes,
        List.of(),
        OptionalLong.empty());
  }

  /**
   * The plan of a load the engine ran to its gates; {@code historyVersions} as the record's (empty
   * for a Table without history).
   */
  static LoadPlan of(
      String tableId,
      LoadOutcome o,
      List<Map<String, Object>> sample,
      List<String> notes,
      OptionalLong historyVersions) {
    return new LoadPlan(
        tableId,
        o.status(),
        o.counts(),
        o.deltaVersion(),
        o.gates(),
        sample,
        o.message(),
        o.warnings(),
        notes,
        o.expectations(),
        historyVersions);
  }

  /** This plan with one more note. */
  public LoadPlan withNote(String note) {
    List<String> more = new ArrayList<>(notes);
    more.add(note);
    return new LoadPlan(
        tableId,
        status,
        counts,
        deltaVersion,
        gates,
        rejectionSample,
        message,
        warnings,
        more,
        expectations,
        historyVersions);
  }

  /** Whether the load would change rows (so dependants are planned against rows it replaces). */
  public boolean changesRows() {
    return counts.changed() > 0 && (status == LoadStatus.SUCCEEDED);
  }

  /** A plan CI gates on: the load would be refused or fail (exit code 1). */
  public boolean isFailure() {
    return status.isFailure();
  }

  /**
   * The value of {@code field} as this record holds it ({@link GateVerdict}s, {@link
   * ExpectationCount}s); {@link ResultValues} turns it into JSON or a row value. A field a plan
   * does not show has none here.
   */
  public Object value(LoadResultField field) {
    return switch (field) {
      case TABLE_ID -> tableId;
      case STATUS -> status.text();
      case ROWS_INSERTED -> counts.inserted();
      case ROWS_UPDATED -> counts.updated();
      case ROWS_DELETED -> counts.deleted();
      case ROWS_REVIVED -> counts.revived();
      case ROWS_UNCHANGED -> counts.unchanged();
      case ROWS_REJECTED -> counts.rejected();
      case TARGET_LIVE_ROWS_BEFORE -> counts.liveBefore();
      case TARGET_LIVE_ROWS_AFTER -> counts.liveAfter();
      case DELTA_VERSION -> deltaVersion;
      case GATES -> gates;
      case REJECTIONS -> rejectionSample;
      case MESSAGE -> message;
      case WARNINGS -> warnings;
      case NOTES -> notes;
      case ROWS_QUARANTINED -> counts.quarantined();
      case ROWS_STALE -> counts.stale();
      case EXPECTATIONS -> expectations;
      case HISTORY_VERSIONS -> historyVersions.isPresent() ? historyVersions.getAsLong() : null;
      case LOAD_ID, STARTED_AT, FINISHED_AT, LOAD_TIMESTAMP, GATES_WAIVED, DURATION_MS ->
          throw new IllegalArgumentException("a plan has no " + field.column());
    };
  }

  /** The plan as an ordered map (JSON output). */
  public Map<String, Object> toMap() {
    return ResultValues.map(LoadResultField.View.PLAN, this::value);
  }
}
