package io.weaver.warehouse.signature;

import static io.weaver.warehouse.signature.Build.INT;
import static io.weaver.warehouse.signature.Build.call;
import static io.weaver.warehouse.signature.Build.caseWhen;
import static io.weaver.warehouse.signature.Build.cast;
import static io.weaver.warehouse.signature.Build.concat;
import static io.weaver.warehouse.signature.Build.when;

import io.weaver.warehouse.signature.TsqlExpr.Bin;
import io.weaver.warehouse.signature.TsqlExpr.IsNull;
import io.weaver.warehouse.signature.TsqlExpr.Ref;
import io.weaver.warehouse.signature.TsqlExpr.Subquery;
import io.weaver.warehouse.signature.TsqlType.Family;
import java.util.List;

/**
 * The Warehouse's {@code [Row signature]}: T-SQL that computes, inside the database, the same
 * SHA-256 the Lakehouse stores (SignatureEncoding in catalyst-rules, docs/warehouse.md "Row
 * signature"). The tests evaluate the same expression in Java ({@code TsqlSignatureOracle}).
 *
 * <p>Per column, in order: {@code CASE WHEN v IS NULL THEN 0x00 ELSE 0x01 + <4-byte big-endian
 * length> + <canonical bytes> END}; the columns are concatenated with {@code +} into one {@code
 * varbinary(max)} and hashed with {@code HASHBYTES('SHA2_256', …)}.
 */
public final class TsqlSignature {

  /** A comparison column: its name and its declared T-SQL type. */
  public record Column(String name, TsqlType type) {
    public Column {
      if (name == null || name.isEmpty() || type == null) {
        throw new IllegalArgumentException("a signature column needs a name and a type");
      }
    }

    /** Parses the authored type text (see {@link TsqlType#parse}). */
    public static Column of(String name, String typeText) {
      return new Column(name, TsqlType.parse(typeText));
    }
  }

  private static final TsqlType BINARY_4 = TsqlType.sized(Family.BINARY, 4);

  private TsqlSignature() {}

  /** {@code HASHBYTES('SHA2_256', <encoding>)}: the {@code varbinary(32)} signature. */
  public static String hashExpression(List<Column> columns, String rowAlias) {
    return "HASHBYTES('SHA2_256', " + encodingExpression(columns, rowAlias) + ")";
  }

  /** The {@code varbinary(max)} bytes hashed: the columns' encodings concatenated. */
  public static String encodingExpression(List<Column> columns, String rowAlias) {
    return encoding(columns, rowAlias).render();
  }

  static TsqlExpr encoding(List<Column> columns, String rowAlias) {
    FloatText.checkRowAlias(rowAlias);
    if (columns.isEmpty()) {
      return new Bin(new byte[0]); // SHA-256 of nothing, as on the Delta side
    }
    TsqlExpr[] parts = new TsqlExpr[columns.size()];
    for (int i = 0; i < parts.length; i++) {
      Column column = columns.get(i);
      parts[i] = framed(new Ref(rowAlias, column.name()), column.type());
    }
    return concat(parts);
  }

  /**
   * {@code CASE WHEN v IS NULL THEN 0x00 ELSE 0x01 + len + bytes END}. DATALENGTH of a max type is
   * a bigint, and a bigint to binary(4) keeps its low bytes only by the docs' "truncated on the
   * left" rule, so it is made an int first: an int to binary(4) is its 4 big-endian bytes. A
   * float's subquery is framed inside, so its text is computed once.
   */
  private static TsqlExpr framed(Ref v, TsqlType type) {
    TsqlExpr canonical = CanonicalText.of(type, v);
    TsqlExpr present =
        canonical instanceof Subquery query
            ? query.withResult(frame(query.result()))
            : frame(canonical);
    return caseWhen(present, when(new IsNull(v), new Bin(new byte[] {0})));
  }

  private static TsqlExpr frame(TsqlExpr bytes) {
    TsqlExpr length = cast(cast(call("DATALENGTH", bytes), INT), BINARY_4);
    return concat(new Bin(new byte[] {1}), length, bytes);
  }
}
