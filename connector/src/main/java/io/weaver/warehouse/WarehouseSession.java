package io.weaver.warehouse;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One JDBC connection to a Warehouse item, and the few calls Build and Load make through it. Every
 * value Weaver sends is a bound parameter or a literal rendered by {@link TsqlNames}; the result
 * sets read here are metadata and one load's counts, never table data.
 */
final class WarehouseSession implements AutoCloseable {
  private final Connection connection;
  private final String item;

  WarehouseSession(Connection connection, String item) {
    this.connection = connection;
    this.item = item;
  }

  /** Connects to the item's endpoint; a failure names the item and the URL. */
  static WarehouseSession open(WarehouseEndpoint endpoint, Map<String, String> environment) {
    try {
      return new WarehouseSession(endpoint.connect(environment), endpoint.item());
    } catch (SQLException | IllegalStateException e) {
      throw new WarehouseException(
          "Warehouse item "
              + endpoint.item()
              + ": cannot connect to "
              + endpoint.jdbcUrl()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** Runs one batch; an error names the batch. */
  void execute(Batch batch) {
    try (Statement statement = connection.createStatement()) {
      statement.execute(batch.sql());
    } catch (SQLException e) {
      throw new WarehouseException(
          "Warehouse item " + item + ": batch '" + batch.name() + "' failed: " + e.getMessage(), e);
    }
  }

  /** Runs statements in one transaction (catalogue rows of one Table). */
  void executeInTransaction(String name, List<String> statements) {
    try {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        for (String sql : statements) {
          statement.execute(sql);
        }
        connection.commit();
      } catch (SQLException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new WarehouseException(
          "Warehouse item " + item + ": " + name + " failed: " + e.getMessage(), e);
    }
  }

  /** The first column of the first row of a query with string parameters, if any. */
  Optional<String> scalar(String sql, String... parameters) {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setString(i + 1, parameters[i]);
      }
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new WarehouseException("Warehouse item " + item + ": " + e.getMessage(), e);
    }
  }

  /** Every row of a query, as column label → value (small metadata results only). */
  List<Map<String, Object>> rows(String sql, String... parameters) {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setString(i + 1, parameters[i]);
      }
      try (ResultSet rs = statement.executeQuery()) {
        return read(rs);
      }
    } catch (SQLException e) {
      throw new WarehouseException("Warehouse item " + item + ": " + e.getMessage(), e);
    }
  }

  /**
   * Calls a Table's load procedure and returns its answer row. SQL errors are thrown as they are,
   * so the caller can tell a validation failure, a refusal and a write conflict apart.
   */
  Map<String, Object> callLoad(
      String procedure, String loadId, Instant loadTimestamp, boolean waiveGates)
      throws SQLException {
    try (PreparedStatement call =
        connection.prepareStatement(
            "EXEC " + procedure + " @load_id = ?, @load_timestamp = ?, @waive_gates = ?")) {
      call.setString(1, loadId);
      call.setObject(2, utc(loadTimestamp));
      call.setBoolean(3, waiveGates);
      return answer(call, procedure);
    }
  }

  /**
   * Calls a Table's restore procedure and returns its answer row; SQL errors are thrown as they are
   * (a load that cannot be restored to, a conflict).
   */
  Map<String, Object> callRestore(String procedure, String loadId, String restoreId)
      throws SQLException {
    try (PreparedStatement call =
        connection.prepareStatement("EXEC " + procedure + " @load_id = ?, @restore_id = ?")) {
      call.setString(1, loadId);
      call.setString(2, restoreId);
      return answer(call, procedure);
    }
  }

  /** Runs {@code call} and returns the first row of its first result set. */
  private static Map<String, Object> answer(PreparedStatement call, String procedure)
      throws SQLException {
    boolean results = call.execute();
    while (!results && call.getUpdateCount() != -1) {
      results = call.getMoreResults();
    }
    if (!results) {
      throw new SQLException(procedure + " returned no answer row");
    }
    try (ResultSet rs = call.getResultSet()) {
      List<Map<String, Object>> rows = read(rs);
      if (rows.isEmpty()) {
        throw new SQLException(procedure + " returned no answer row");
      }
      return rows.get(0);
    }
  }

  /** Work on the connection itself (bound parameters of other types); errors name the item. */
  void withConnection(SqlWork work) {
    try {
      work.run(connection);
    } catch (SQLException e) {
      throw new WarehouseException("Warehouse item " + item + ": " + e.getMessage(), e);
    }
  }

  @FunctionalInterface
  interface SqlWork {
    void run(Connection connection) throws SQLException;
  }

  /**
   * An instant as the UTC wall-clock time a {@code datetime2} column holds. {@code setTimestamp}
   * would render it in the JVM's time zone.
   */
  static LocalDateTime utc(Instant instant) {
    return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static List<Map<String, Object>> read(ResultSet rs) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    List<Map<String, Object>> rows = new ArrayList<>();
    while (rs.next()) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        row.put(meta.getColumnLabel(i), rs.getObject(i));
      }
      rows.add(row);
    }
    return rows;
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // closing a connection that failed: the failure that matters was already reported
    }
  }
}
