package io.weaver.warehouse;

import io.weaver.warehouse.signature.TsqlSignature;
import java.util.List;

/**
 * The {@code [Row signature]} expression of a row over its comparison columns: {@link
 * TsqlSignature}'s {@code HASHBYTES('SHA2_256', …)} of the Delta encoding
 * (docs/warehouse-signature.md).
 */
final class RowSignatureSql {
  private RowSignatureSql() {}

  static String hash(List<WarehouseColumn> columns, String alias) {
    return TsqlSignature.hashExpression(
        columns.stream().map(c -> TsqlSignature.Column.of(c.name(), c.type())).toList(), alias);
  }
}
