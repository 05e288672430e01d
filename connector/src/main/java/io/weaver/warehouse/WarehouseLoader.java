package io.weaver.warehouse;

import io.weaver.catalogue.LoadResultField;
import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.records.LoadResult;
import io.weaver.load.spec.LoadIds;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.TableDeclaration;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Load of one Warehouse Table: calls its generated procedure with a new (or the caller's) load id
 * and the load's timestamp, and turns the answer — or the error — into the same result row a
 * Lakehouse load gives.
 *
 * <p>Error numbers: {@link LoadProcedure#VALIDATION_ERROR} is a {@code failed} load, {@link
 * LoadProcedure#REFUSAL_ERROR} a {@code refused} one (both recorded in {@code _.LoadHistory} here,
 * since the procedure wrote nothing); a write conflict (24556, 24706: another transaction wrote the
 * table first, Fabric's first-committer-wins) is retried with the same load id, which the
 * procedure's exactly-once check makes safe; anything else fails the load with the endpoint's
 * message.
 */
public final class WarehouseLoader {
  /**
   * Write conflicts: Fabric Warehouse's snapshot isolation (first committer wins) and the
   * procedure's own check that no other load of the Table committed since it started.
   */
  static final List<Integer> CONFLICTS =
      List.of(24556, 24706, 3960, LoadProcedure.SUPERSEDED_ERROR);

  static final int ATTEMPTS = 3;

  /** The endpoint's error for a procedure that does not exist (the Table was never built). */
  static final int NO_SUCH_PROCEDURE = 2812;

  private final WarehouseEndpoint endpoint;
  private final Map<String, String> environment;

  public WarehouseLoader(WarehouseEndpoint endpoint, Map<String, String> environment) {
    this.endpoint = endpoint;
    this.environment = environment;
  }

  public LoadResult load(TableDeclaration t, boolean waiveGates, Optional<String> requestedLoadId) {
    Instant started = Instant.now();
    Instant loadTimestamp = started.truncatedTo(ChronoUnit.MICROS);
    String loadId = requestedLoadId.orElseGet(() -> LoadIds.newLoadId(started));
    String id = t.tableId().toString();
    if (!t.hasLoadProcedure()) {
      return result(
          loadId,
          t,
          LoadStatus.SKIPPED,
          "'Has load procedure: false': Weaver installs the structure only",
          started,
          loadTimestamp);
    }
    String procedure = WarehouseTable.procedureOf(t);
    try (WarehouseSession session = WarehouseSession.open(endpoint, environment)) {
      for (int attempt = 1; ; attempt++) {
        try {
          Map<String, Object> answer =
              session.callLoad(procedure, loadId, loadTimestamp, waiveGates);
          return answered(loadId, t, answer, recorded(session, t, loadId), started, loadTimestamp);
        } catch (SQLException e) {
          if (CONFLICTS.contains(e.getErrorCode()) && attempt < ATTEMPTS) {
            sleep(attempt);
            continue;
          }
          LoadStatus status =
              e.getErrorCode() == LoadProcedure.REFUSAL_ERROR
                  ? LoadStatus.REFUSED
                  : LoadStatus.FAILED;
          String message = message(t, e, attempt);
          record(session, loadId, id, status, started, loadTimestamp, message);
          return result(loadId, t, status, message, started, loadTimestamp);
        }
      }
    } catch (WarehouseException e) {
      return result(loadId, t, LoadStatus.FAILED, e.getMessage(), started, loadTimestamp);
    }
  }

  private static String message(TableDeclaration t, SQLException e, int attempts) {
    if (e.getErrorCode() == LoadProcedure.VALIDATION_ERROR
        || e.getErrorCode() == LoadProcedure.REFUSAL_ERROR) {
      return e.getMessage();
    }
    if (e.getErrorCode() == NO_SUCH_PROCEDURE) {
      return t.qualifiedName() + " has no load procedure in the Warehouse; run build first";
    }
    if (CONFLICTS.contains(e.getErrorCode())) {
      return t.qualifiedName()
          + ": another transaction wrote the table first, "
          + attempts
          + " time(s); nothing of this load was written. Run it again ("
          + e.getMessage()
          + ")";
    }
    return t.qualifiedName()
        + ": the load failed in the Warehouse, nothing written: "
        + e.getMessage();
  }

  /** A history row for a load the procedure refused or failed (it wrote nothing itself). */
  private static void record(
      WarehouseSession session,
      String loadId,
      String tableId,
      LoadStatus status,
      Instant started,
      Instant loadTimestamp,
      String message) {
    String sql =
        "INSERT INTO [_].[LoadHistory] ([load_id], [table_id], [status], [started_at],"
            + " [finished_at], [load_timestamp], [gates_waived], [message])"
            + " VALUES (?, ?, ?, ?, SYSUTCDATETIME(), ?, 0, ?)";
    session.withConnection(
        connection -> {
          try (PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, loadId);
            insert.setString(2, tableId);
            insert.setString(3, status.text());
            insert.setObject(4, WarehouseSession.utc(started));
            insert.setObject(5, WarehouseSession.utc(loadTimestamp));
            insert.setString(6, message.length() > 8000 ? message.substring(0, 8000) : message);
            insert.executeUpdate();
          }
        });
  }

  /**
   * The applied load's expectation records; none when they cannot be read (the load is applied
   * either way, and its rows stay in the catalogue).
   */
  private static RecordedExpectations recorded(
      WarehouseSession session, TableDeclaration t, String loadId) {
    try {
      return RecordedExpectations.read(session, t, loadId);
    } catch (WarehouseException e) {
      org.slf4j.LoggerFactory.getLogger(WarehouseLoader.class)
          .warn(
              "{}: load {} applied; its expectation counts are in _.LoadExpectation but could not"
                  + " be read back",
              t.qualifiedName(),
              loadId,
              e);
      return RecordedExpectations.NONE;
    }
  }

  private static LoadResult answered(
      String loadId,
      TableDeclaration t,
      Map<String, Object> row,
      RecordedExpectations expectations,
      Instant started,
      Instant loadTimestamp) {
    boolean again = Boolean.TRUE.equals(row.get("already_applied"));
    return LoadResult.builder(
            loadId,
            t.qualifiedName(),
            LoadStatus.valueOf(
                String.valueOf(row.get("status")).toUpperCase(java.util.Locale.ROOT)))
        .counts(
            ChangeCounts.builder()
                .inserted(count(row, LoadResultField.ROWS_INSERTED))
                .updated(count(row, LoadResultField.ROWS_UPDATED))
                .deleted(count(row, LoadResultField.ROWS_DELETED))
                .revived(count(row, LoadResultField.ROWS_REVIVED))
                .unchanged(count(row, LoadResultField.ROWS_UNCHANGED))
                .rejected(count(row, LoadResultField.ROWS_REJECTED))
                .liveBefore(count(row, LoadResultField.TARGET_LIVE_ROWS_BEFORE))
                .quarantined(expectations.quarantined())
                // Only the procedure of a Table with a Sequence column answers rows_stale.
                .stale(count(row, LoadResultField.ROWS_STALE))
                .build())
        .expectations(expectations.counts())
        .targetLiveRowsAfter(count(row, LoadResultField.TARGET_LIVE_ROWS_AFTER))
        .gatesWaived(Boolean.TRUE.equals(row.get("gates_waived")))
        .durationMs(Duration.between(started, Instant.now()).toMillis())
        .message(again ? "load id " + loadId + " was already applied; nothing written" : null)
        .startedAt(started)
        .loadTimestamp(loadTimestamp)
        .build();
  }

  /** A count the load procedure answered, by the result's column name (0 when absent). */
  private static long count(Map<String, Object> row, LoadResultField field) {
    Object v = row.get(field.column());
    return v instanceof Number n ? n.longValue() : 0;
  }

  private static LoadResult result(
      String loadId,
      TableDeclaration t,
      LoadStatus status,
      String message,
      Instant started,
      Instant ts) {
    return LoadResult.builder(loadId, t.qualifiedName(), status)
        .durationMs(Duration.between(started, Instant.now()).toMillis())
        .message(message)
        .startedAt(started)
        .loadTimestamp(ts)
        .build();
  }

  static void sleep(int attempt) {
    try {
      Thread.sleep(500L * attempt);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
