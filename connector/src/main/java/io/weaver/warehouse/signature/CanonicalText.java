package io.weaver.warehouse.signature;

import static io.weaver.warehouse.signature.Build.NVARCHAR_MAX;
import static io.weaver.warehouse.signature.Build.VARBINARY_MAX;
import static io.weaver.warehouse.signature.Build.VARCHAR_MAX;
import static io.weaver.warehouse.signature.Build.call;
import static io.weaver.warehouse.signature.Build.caseWhen;
import static io.weaver.warehouse.signature.Build.cast;
import static io.weaver.warehouse.signature.Build.chars;
import static io.weaver.warehouse.signature.Build.concat;
import static io.weaver.warehouse.signature.Build.convert;
import static io.weaver.warehouse.signature.Build.num;
import static io.weaver.warehouse.signature.Build.op;
import static io.weaver.warehouse.signature.Build.str;
import static io.weaver.warehouse.signature.Build.varchar;
import static io.weaver.warehouse.signature.Build.when;

import io.weaver.warehouse.signature.TsqlExpr.Collate;
import io.weaver.warehouse.signature.TsqlExpr.DatePart;
import io.weaver.warehouse.signature.TsqlType.Family;

/**
 * The canonical bytes of a non-null value of each T-SQL type, as a {@code varbinary(max)}
 * expression: the same bytes SignatureEncoding (catalyst-rules) writes for the Spark type the
 * column corresponds to. Framing (null byte, length) is {@link TsqlSignature}'s job.
 */
final class CanonicalText {

  /**
   * Fabric Warehouse's default collation, and SQL Server 2019's UTF-8 one: an nvarchar labelled
   * with it becomes UTF-8 varchar, whose bytes are then the UTF-8 text.
   */
  static final String UTF8_COLLATION = "Latin1_General_100_BIN2_UTF8";

  private CanonicalText() {}

  static TsqlExpr of(TsqlType type, TsqlExpr v) {
    return switch (type.family()) {
      case CHAR, VARCHAR, NCHAR, NVARCHAR -> utf8(v);
      case TINYINT, SMALLINT, INT, BIGINT -> bytes(convert(varchar(20), v, 0));
      case BIT -> bytes(caseWhen(str("false"), when(op(v, "=", num(1)), str("true"))));
      case DECIMAL -> bytes(decimal(v, type.precision(), type.scale()));
      // money is decimal(19,4) and smallmoney decimal(10,4); CONVERT(varchar, money) would show
      // two decimals (style 0), so convert through the decimal type instead.
      case MONEY -> bytes(decimal(cast(v, TsqlType.decimal(19, 4)), 19, 4));
      case SMALLMONEY -> bytes(decimal(cast(v, TsqlType.decimal(10, 4)), 10, 4));
      case FLOAT -> FloatText.of(v, false);
      case REAL -> FloatText.of(v, true);
      case DATE -> bytes(convert(chars(10), v, 23)); // yyyy-mm-dd; years are 0001 to 9999
      case DATETIME2, DATETIME, SMALLDATETIME -> bytes(timestamp(v));
      // The stored instant in UTC, like a Spark timestamp.
      case DATETIMEOFFSET -> bytes(timestamp(call("SWITCHOFFSET", v, str("+00:00"))));
      case TIME -> bytes(time(v));
      case BINARY, VARBINARY -> cast(v, VARBINARY_MAX);
      // Spark has no uuid type: a uniqueidentifier arrives in Delta as its lowercase text.
      case UNIQUEIDENTIFIER -> bytes(call("LOWER", convert(chars(36), v, 0)));
    };
  }

  /** The ASCII text's bytes (varchar in any code page holds ASCII as itself). */
  private static TsqlExpr bytes(TsqlExpr text) {
    return cast(text, VARBINARY_MAX);
  }

  /**
   * The characters as UTF-8: to nvarchar (lossless from any varchar code page), labelled with the
   * UTF-8 collation, to varchar (now code page 65001), to bytes. char(n) keeps its pad blanks, as
   * Spark's CHAR(n) does.
   */
  private static TsqlExpr utf8(TsqlExpr v) {
    return cast(
        cast(new Collate(cast(v, NVARCHAR_MAX), UTF8_COLLATION), VARCHAR_MAX), VARBINARY_MAX);
  }

  /**
   * Plain digits at the declared scale, as CONVERT writes a decimal. When precision equals scale
   * SQL Server is reported to drop the integer zero ({@code .50}); the fix-up restores it and is a
   * no-op if it does not.
   */
  private static TsqlExpr decimal(TsqlExpr v, int precision, int scale) {
    TsqlExpr text = convert(varchar(50), v, 0);
    if (precision != scale) {
      return text;
    }
    return caseWhen(
        text,
        when(op(call("LEFT", text, num(1)), "=", str(".")), concat(str("0"), text)),
        when(
            op(call("LEFT", text, num(2)), "=", str("-.")),
            concat(str("-0"), call("SUBSTRING", text, num(2), num(50)))));
  }

  /**
   * {@code yyyy-mm-ddThh:mi:ss.ffffffZ}: style 126 cut to 19 characters gives the date and time
   * (its fraction would drop trailing zeros), DATEPART the six fraction digits, zero-padded.
   *
   * <p>Through datetime2(7), which holds every source exactly (datetime's 1/300 s ticks to 100 ns;
   * docs, compatibility level 130+), and whose microseconds DATEPART truncates (docs' example:
   * {@code .1234567} is microsecond 123456). Truncating, not rounding (a CAST to datetime2(6) would
   * round): a Spark reader keeps the microseconds the same way, and 9999-12-31 23:59:59.9999999
   * cannot round into an out-of-range year.
   */
  private static TsqlExpr timestamp(TsqlExpr v) {
    TsqlExpr t7 = cast(v, TsqlType.fractional(Family.DATETIME2, 7));
    return concat(convert(chars(19), t7, 126), str("."), micros(t7), str("Z"));
  }

  /** Warehouse-only (Delta has no time type): {@code hh:mi:ss.ffffff}, truncated likewise. */
  private static TsqlExpr time(TsqlExpr v) {
    TsqlExpr t7 = cast(v, TsqlType.fractional(Family.TIME, 7));
    return concat(convert(chars(8), t7, 108), str("."), micros(t7));
  }

  private static TsqlExpr micros(TsqlExpr t7) {
    return call(
        "RIGHT",
        concat(str("000000"), convert(varchar(7), new DatePart("microsecond", t7), 0)),
        num(6));
  }
}
