package io.weaver.load;

import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.concat_ws;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sha2;
import static org.apache.spark.sql.functions.when;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.types.DataTypes;

/**
 * The row signature of the comparison columns (spec §7), as a Spark column.
 *
 * <p>The real signature is the Catalyst expression {@code
 * io.weaver.catalyst.signature.RowSignature} of the {@code catalyst-rules} module. Until that class
 * is on the class path this seam computes a temporary stand-in: SHA-256 over a length-prefixed text
 * encoding of the columns. The stand-in is stable within one Spark version and session time zone
 * but is not the encoding the spec pins, so tables loaded with it will see every row as updated
 * once the real expression takes over.
 */
final class SignatureColumn {
  private static final String ROW_SIGNATURE = "io.weaver.catalyst.signature.RowSignature";
  private static final Method REAL = findRowSignature();

  private SignatureColumn() {}

  static Column of(List<Column> columns) {
    if (REAL != null) {
      try {
        return (Column) REAL.invoke(null, List.copyOf(columns));
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
      }
    }
    return standIn(columns);
  }

  /** Whether the canonical Catalyst signature is in use (false: the stand-in). */
  static boolean canonical() {
    return REAL != null;
  }

  private static Column standIn(List<Column> columns) {
    // null -> "0"; value -> "1" + length + ":" + text, so no two column lists encode alike.
    List<Column> parts = new ArrayList<>();
    for (Column column : columns) {
      Column text = column.cast(DataTypes.StringType);
      parts.add(
          when(text.isNull(), lit("0")).otherwise(concat(lit("1"), length(text), lit(":"), text)));
    }
    return sha2(concat_ws("", parts.toArray(new Column[0])), 256);
  }

  private static Method findRowSignature() {
    try {
      return Class.forName(ROW_SIGNATURE).getMethod("rowSignature", List.class);
    } catch (ClassNotFoundException | NoSuchMethodException e) {
      return null;
    }
  }
}
