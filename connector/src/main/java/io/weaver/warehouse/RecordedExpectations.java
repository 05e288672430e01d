package io.weaver.warehouse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.metadata.Expectation;
import io.weaver.metadata.TableDeclaration;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.LoggerFactory;

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

  private static final JsonFactory JSON = new JsonFactory();

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
          query(
              connection,
              "SELECT [expectation], [action], [rows_violating], [sample_keys] FROM "
                  + CatalogueDdl.name(CatalogueTable.LOAD_EXPECTATION),
              loadId,
              tableId,
              rs -> {
                String name = rs.getString(1);
                byName.put(
                    name.toLowerCase(Locale.ROOT),
                    new ExpectationCount(
                        name, rs.getString(2), rs.getLong(3), samples(name, rs.getString(4))));
              });
          query(
              connection,
              "SELECT COUNT_BIG(*) FROM " + CatalogueDdl.name(CatalogueTable.LOAD_QUARANTINE),
              loadId,
              tableId,
              rs -> quarantined[0] = rs.getLong(1));
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

  /** One row of a catalogue query. */
  @FunctionalInterface
  private interface RowReader {
    void row(ResultSet rs) throws SQLException;
  }

  /**
   * {@code select} with {@code WHERE [load_id] = ? AND [table_id] = ?}, each row to {@code rows}.
   */
  private static void query(
      Connection connection, String select, String loadId, String tableId, RowReader rows)
      throws SQLException {
    try (PreparedStatement q =
        connection.prepareStatement(select + " WHERE [load_id] = ? AND [table_id] = ?")) {
      q.setString(1, loadId);
      q.setString(2, tableId);
      try (ResultSet rs = q.executeQuery()) {
        while (rs.next()) {
          rows.row(rs);
        }
      }
    }
  }

  /**
   * {@code sample_keys} of expectation {@code name}: a JSON list of key texts, or null. Samples are
   * illustration, so text that is not a complete list (e.g. cut short by a catalogue column of an
   * older build) costs only the keys after the fault, never the counts: the keys read before it are
   * kept, and a warning says so.
   */
  static List<String> samples(String name, String json) {
    if (json == null || json.isBlank()) {
      return List.of();
    }
    List<String> keys = new ArrayList<>();
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new JsonParseException(p, "not a JSON list");
      }
      for (JsonToken token = p.nextToken(); token != JsonToken.END_ARRAY; token = p.nextToken()) {
        if (token == null) {
          throw new JsonParseException(p, "the list is not closed");
        }
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
          p.skipChildren();
        } else {
          keys.add(p.getText());
        }
      }
    } catch (IOException e) {
      LoggerFactory.getLogger(RecordedExpectations.class)
          .warn(
              "sample_keys of expectation '{}' is not a JSON list of keys ({}); kept the {} read"
                  + " before the fault",
              name,
              e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage(),
              keys.size());
    }
    return List.copyOf(keys);
  }
}
