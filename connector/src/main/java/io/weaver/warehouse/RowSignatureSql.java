package io.weaver.warehouse;

import java.util.List;

/** The {@code [Row signature]} expression of a row: wired to the T-SQL signature encoding. */
final class RowSignatureSql {
  private RowSignatureSql() {}

  static String hash(List<WarehouseColumn> columns, String alias) {
    throw new UnsupportedOperationException("wired when the T-SQL signature encoding lands");
  }
}
