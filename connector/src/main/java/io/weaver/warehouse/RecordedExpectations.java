package io.weaver.warehouse;

import com.fasterxml.jackson.databind.JsonNode;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.json.Json;
import io.weaver.load.ExpectationCount;
import io.weaver.metadata.Expectation;
import io.weaver.metadata.TableDeclaration;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an applied Warehouse load recorded about its Table's expectations, read back for the load's
 * result (command line, {@code LOAD WEAVER}, {@code Workspace.load}): its {@code _.LoadExpectation}
 * rows, in declaration order, and how many rows it put in {@code _.LoadQuarantine}. The procedure
 * writes both in the load's own transaction, so a retried load id reads the same.
 *
 * @param counts one count per expectation the load recorded
 * @param quarantined the load's quarantined rows
 */
record RecordedExpectations(List<ExpectationCount> counts, long quarantined) {

  static final RecordedExpectations NONE = new RecordedExpectations(List.of(), 0);

  /** The records of load {@code loadId} of {@code t}; {@link #NONE} when it declares none. */
  static RecordedExpectations read(WarehouseSession session, TableDeclaration t, String loadId) {
    if (t.expectations().isEmpty()) {
      return NONE;
    }
    String tableId = t.tableId().toString();
    Map<String, ExpectationCount> byName = new HashMap<>();
    long[] quarantined = new long[1];
    session.withConnection(
        connection -> {
          try (PreparedStatement q =
              connection.prepareStatement(
                  "SELECT [expectation], [action], [rows_violating], [sample_keys] FROM "
                      + CatalogueDdl.name(CatalogueTable.LOAD_EXPECTATION)
                      + " WHERE [load_id] = ? AND [table_id] = ?")) {
            q.setString(1, loadId);
            q.setString(2, tableId);
            try (ResultSet rs = q.executeQuery()) {
              while (rs.next()) {
                String name = rs.getString(1);
                byName.put(
                    name.toLowerCase(Locale.ROOT),
                    new ExpectationCount(
                        name, rs.getString(2), rs.getLong(3), samples(rs.getString(4))));
              }
            }
          }
          try (PreparedStatement q =
              connection.prepareStatement(
                  "SELECT COUNT_BIG(*) FROM "
                      + CatalogueDdl.name(CatalogueTable.LOAD_QUARANTINE)
                      + " WHERE [load_id] = ? AND [table_id] = ?")) {
            q.setString(1, loadId);
            q.setString(2, tableId);
            try (ResultSet rs = q.executeQuery()) {
              quarantined[0] = rs.next() ? rs.getLong(1) : 0;
            }
          }
        });
    List<ExpectationCount> ordered = new ArrayList<>();
    for (Expectation e : t.expectations()) {
      ExpectationCount c = byName.get(e.name().toLowerCase(Locale.ROOT));
      if (c != null) {
        ordered.add(c);
      }
    }
    return new RecordedExpectations(ordered, quarantined[0]);
  }

  /** {@code sample_keys}: a JSON list of key texts, or null. */
  private static List<String> samples(String json) throws SQLException {
    if (json == null || json.isBlank()) {
      return List.of();
    }
    try {
      List<String> keys = new ArrayList<>();
      for (JsonNode k : Json.read(json)) {
        keys.add(k.asText());
      }
      return keys;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new SQLException("sample_keys is not a JSON list: " + json, e);
    }
  }
}
