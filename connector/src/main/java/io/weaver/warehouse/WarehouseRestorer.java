package io.weaver.warehouse;

import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.load.restore.LoadRestore;
import io.weaver.load.spec.LoadIds;
import io.weaver.metadata.TableDeclaration;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * {@code RESTORE WEAVER TABLE … TO LOAD} for a Warehouse Table: calls its generated restore
 * procedure ({@link RestoreProcedure}) and answers as a Lakehouse restore does, without Delta
 * versions ({@code -1}) or a bookmark (Warehouse Tables have none).
 *
 * <p>A load that cannot be restored to is an {@link IllegalArgumentException} with the procedure's
 * message, as on a Lakehouse; a write conflict is retried with the same restore id, which the
 * procedure applies at most once.
 */
final class WarehouseRestorer {
  private final WarehouseEndpoint endpoint;
  private final Map<String, String> environment;

  WarehouseRestorer(WarehouseEndpoint endpoint, Map<String, String> environment) {
    this.endpoint = endpoint;
    this.environment = environment;
  }

  LoadRestore.Result restore(TableDeclaration t, String loadId) {
    if (!t.hasLoadProcedure()) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          t.qualifiedName()
              + " declares 'Has load procedure: false': Weaver loads nothing into it, so there is"
              + " no load to restore to");
    }
    String procedure = RestoreProcedure.nameOf(t);
    String restoreId = LoadIds.newLoadId(Instant.now());
    try (WarehouseSession session = WarehouseSession.open(endpoint, environment)) {
      for (int attempt = 1; ; attempt++) {
        try {
          Map<String, Object> answer = session.callRestore(procedure, loadId, restoreId);
          String message = String.valueOf(answer.get("message"));
          return new LoadRestore.Result(
              t.qualifiedName(), restoreId, loadId, -1, -1, Optional.empty(), message);
        } catch (SQLException e) {
          if (WarehouseLoader.CONFLICTS.contains(e.getErrorCode())
              && attempt < WarehouseLoader.ATTEMPTS) {
            WarehouseLoader.sleep(attempt);
            continue;
          }
          if (e.getErrorCode() == RestoreProcedure.NOT_RESTORABLE) {
            throw new WeaverArgumentException(
                WeaverErrorClass.WEAVER_INVALID_REQUEST, e.getMessage(), java.util.Map.of(), e);
          }
          if (e.getErrorCode() == WarehouseLoader.NO_SUCH_PROCEDURE) {
            throw new WeaverArgumentException(
                WeaverErrorClass.WEAVER_INVALID_REQUEST,
                t.qualifiedName() + " has no restore procedure in the Warehouse; run build first",
                java.util.Map.of(),
                e);
          }
          throw new WarehouseException(
              t.qualifiedName()
                  + ": the restore failed in the Warehouse, nothing changed: "
                  + e.getMessage(),
              e);
        }
      }
    }
  }
}
