package io.weaver.warehouse.signature;

import io.weaver.warehouse.signature.TsqlExpr.Call;
import io.weaver.warehouse.signature.TsqlExpr.Case;
import io.weaver.warehouse.signature.TsqlExpr.Cast;
import io.weaver.warehouse.signature.TsqlExpr.Convert;
import io.weaver.warehouse.signature.TsqlExpr.Num;
import io.weaver.warehouse.signature.TsqlExpr.Op;
import io.weaver.warehouse.signature.TsqlExpr.Str;
import io.weaver.warehouse.signature.TsqlExpr.When;
import io.weaver.warehouse.signature.TsqlType.Family;
import java.util.List;

/** Short constructors for {@link TsqlExpr} trees, so the generators read like the T-SQL. */
final class Build {

  static final TsqlType VARBINARY_MAX = TsqlType.sized(Family.VARBINARY, TsqlType.MAX);
  static final TsqlType VARCHAR_MAX = TsqlType.sized(Family.VARCHAR, TsqlType.MAX);
  static final TsqlType NVARCHAR_MAX = TsqlType.sized(Family.NVARCHAR, TsqlType.MAX);
  static final TsqlType INT = TsqlType.of(Family.INT);
  static final TsqlType BIGINT = TsqlType.of(Family.BIGINT);
  static final TsqlType FLOAT = TsqlType.of(Family.FLOAT);
  static final TsqlType REAL = TsqlType.of(Family.REAL);

  private Build() {}

  static TsqlType varchar(int n) {
    return TsqlType.sized(Family.VARCHAR, n);
  }

  static TsqlType chars(int n) {
    return TsqlType.sized(Family.CHAR, n);
  }

  static Str str(String text) {
    return new Str(text);
  }

  static Num num(long n) {
    return new Num(n);
  }

  static Cast cast(TsqlExpr x, TsqlType type) {
    return new Cast(x, type);
  }

  static Cast tryCast(TsqlExpr x, TsqlType type) {
    return new Cast(x, type, true);
  }

  static Convert convert(TsqlType type, TsqlExpr x, int style) {
    return new Convert(type, x, style);
  }

  static Call call(String function, TsqlExpr... args) {
    return new Call(function, List.of(args));
  }

  static Op op(TsqlExpr a, String op, TsqlExpr b) {
    return new Op(op, a, b);
  }

  /** {@code a + b + …}: concatenation, left to right. */
  static TsqlExpr concat(TsqlExpr... parts) {
    TsqlExpr out = parts[0];
    for (int i = 1; i < parts.length; i++) {
      out = new Op("+", out, parts[i]);
    }
    return out;
  }

  static When when(TsqlExpr condition, TsqlExpr value) {
    return new When(condition, value);
  }

  static Case caseWhen(TsqlExpr otherwise, When... whens) {
    return new Case(List.of(whens), otherwise);
  }
}
