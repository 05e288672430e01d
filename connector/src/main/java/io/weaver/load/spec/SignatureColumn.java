package io.weaver.load.spec;

import io.weaver.catalyst.signature.RowSignature;
import java.util.List;
import org.apache.spark.sql.Column;

/**
 * The row signature of the comparison columns (docs/table-contract.md, "Managed columns"): the
 * Catalyst expression of {@code catalyst-rules}, evaluated in the executors with generated code.
 * Build's re-signing uses the same expression, so a load and a rebuild always agree.
 */
public final class SignatureColumn {
  private SignatureColumn() {}

  public static Column of(List<Column> columns) {
    return RowSignature.rowSignature(List.copyOf(columns));
  }
}
