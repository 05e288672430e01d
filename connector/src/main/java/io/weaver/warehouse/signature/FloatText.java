package io.weaver.warehouse.signature;

import static io.weaver.warehouse.signature.Build.BIGINT;
import static io.weaver.warehouse.signature.Build.FLOAT;
import static io.weaver.warehouse.signature.Build.INT;
import static io.weaver.warehouse.signature.Build.REAL;
import static io.weaver.warehouse.signature.Build.VARBINARY_MAX;
import static io.weaver.warehouse.signature.Build.call;
import static io.weaver.warehouse.signature.Build.caseWhen;
import static io.weaver.warehouse.signature.Build.cast;
import static io.weaver.warehouse.signature.Build.concat;
import static io.weaver.warehouse.signature.Build.convert;
import static io.weaver.warehouse.signature.Build.num;
import static io.weaver.warehouse.signature.Build.op;
import static io.weaver.warehouse.signature.Build.str;
import static io.weaver.warehouse.signature.Build.tryCast;
import static io.weaver.warehouse.signature.Build.varchar;
import static io.weaver.warehouse.signature.Build.when;

import io.weaver.warehouse.signature.TsqlExpr.Apply;
import io.weaver.warehouse.signature.TsqlExpr.Logic;
import io.weaver.warehouse.signature.TsqlExpr.Ref;
import io.weaver.warehouse.signature.TsqlExpr.Source;
import io.weaver.warehouse.signature.TsqlExpr.Subquery;
import io.weaver.warehouse.signature.TsqlExpr.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

/**
 * The shortest round-trip text of a float or real (FloatingText's contract in catalyst-rules) as
 * one scalar subquery, since T-SQL has no shortest-digits conversion.
 *
 * <p>Algorithm. {@code CONVERT(varchar(30), x, 3)} gives 17 significant digits {@code D} and an
 * exponent {@code X} (lossless; parsed without relying on its spelling: the mantissa is what
 * precedes the first {@code E}/{@code e}, stripped of sign and point, the exponent what follows,
 * read as an int). For each length {@code p} in 1..17 (a VALUES row) the two p-digit candidates
 * around the value are {@code lo} = the first p digits and {@code hi = lo + 1} (only when digits
 * were cut off); a candidate round-trips when {@code TRY_CAST('<digits>E<q>' AS float)} (or {@code
 * AS real}) equals the value. The least p with a round-tripping candidate wins; if both do, the
 * nearer (by the cut-off digits against 5000…), on a tie the even one.
 *
 * <p>Why 17 digits suffice: unless the 17-digit value lies exactly on a p-digit decimal, it lies
 * strictly between the same two p-digit decimals as the exact value, so the candidates are
 * FloatingText's; when it lies on one, that decimal is within half a 17-digit unit of the value,
 * closer than any double neighbour, so it round-trips and is the nearest either way. The one case
 * the digits cannot decide is a cut-off of exactly 5000… that is not an exact tie (the exact value
 * is a hair off the midpoint): then both candidates round-trip and this takes the even one, where
 * the exact algorithm takes the nearer. The randomized test counts such cases.
 *
 * <p>TRY_CAST, not CAST: a candidate above the largest float (e.g. {@code 18E307}) would be an
 * overflow error. NaN and infinities cannot be stored in SQL Server, so they need no case; zero (of
 * either sign) is {@code 0.0}.
 */
final class FloatText {

  private FloatText() {}

  /**
   * The subquery's derived tables are all named {@code _…}, so a row alias not starting with {@code
   * _} can never be shadowed by one of them.
   */
  static void checkRowAlias(String rowAlias) {
    if (rowAlias == null || rowAlias.isEmpty() || rowAlias.startsWith("_")) {
      throw new IllegalArgumentException(
          "the row alias must be non-empty and not start with '_' (reserved for the signature's"
              + " derived tables): "
              + rowAlias);
    }
  }

  private static Ref ref(String alias, String column) {
    return new Ref(alias, column);
  }

  /** The framed-ready canonical bytes: a subquery whose result is {@code [w].[txt]}. */
  static Subquery of(TsqlExpr v, boolean real) {
    TsqlExpr x = real ? cast(v, FLOAT) : v; // widening real to float is exact
    List<Source> rows = new ArrayList<>();
    Ref[] digits17 = scientific(rows, x, 3, "");
    Ref d = digits17[0];
    Ref[] digits16 = scientific(rows, x, 2, "16");
    rows.add(new Values("_p", "n", LongStream.rangeClosed(1, 17).boxed().toList()));
    Ref n = ref("_p", "n");
    rows.add(new Apply("_l", "lo", cast(call("LEFT", d, n), BIGINT)));
    Ref lo = ref("_l", "lo");
    rows.add(new Apply("_r", "rest", call("SUBSTRING", d, op(n, "+", num(1)), num(30))));
    Ref rest = ref("_r", "rest");
    rows.add(
        new Apply(
            "_h",
            "hi",
            caseWhen(
                lo,
                when(
                    op(call("PATINDEX", str("%[1-9]%"), rest), ">", num(0)),
                    op(lo, "+", num(1))))));
    Ref hi = ref("_h", "hi");
    rows.add(new Apply("_q", "q", op(op(digits17[1], "+", num(1)), "-", n)));
    Ref q = ref("_q", "q");
    TsqlExpr magnitude = call("ABS", v);
    rows.add(new Apply("_a", "lok", flag(roundTrips(lo, q, real, magnitude))));
    rows.add(
        new Apply(
            "_b",
            "hok",
            flag(new Logic(true, op(hi, "<>", lo), roundTrips(hi, q, real, magnitude)))));
    TsqlExpr loOk = op(ref("_a", "lok"), "=", num(1));
    TsqlExpr hiOk = op(ref("_b", "hok"), "=", num(1));
    TsqlExpr half = call("LEFT", str("5" + "0".repeat(16)), call("LEN", rest));
    TsqlExpr sameAs16 =
        new Logic(
            true,
            op(call("LEFT", digits16[0], num(16)), "=", call("LEFT", d, num(16))),
            op(digits16[1], "=", digits17[1]));
    TsqlExpr nearer =
        caseWhen(
            hi,
            when(op(rest, ">", half), hi),
            when(op(rest, "<", half), lo),
            when(op(n, "=", num(16)), caseWhen(hi, when(sameAs16, lo))),
            when(op(op(lo, "%", num(2)), "=", num(0)), lo));
    rows.add(
        new Apply(
            "_c", "best", caseWhen(hi, when(new Logic(true, loOk, hiOk), nearer), when(loOk, lo))));
    rows.add(new Apply("_t", "bd", convert(varchar(20), ref("_c", "best"), 0)));
    Ref bd = ref("_t", "bd");
    // Trailing zeros of the chosen digits move into the exponent.
    rows.add(
        new Apply(
            "_z", "tz", op(call("PATINDEX", str("%[1-9]%"), call("REVERSE", bd)), "-", num(1))));
    Ref tz = ref("_z", "tz");
    rows.add(new Apply("_y", "sig", call("LEFT", bd, op(call("LEN", bd), "-", tz))));
    Ref sig = ref("_y", "sig");
    rows.add(new Apply("_k", "ex", op(q, "+", tz)));
    Ref ex = ref("_k", "ex");
    rows.add(new Apply("_o", "pt", op(call("LEN", sig), "+", ex))); // digits before the point
    Ref pt = ref("_o", "pt");
    TsqlExpr plain =
        caseWhen(
            concat(str("0."), call("REPLICATE", str("0"), op(num(0), "-", pt)), sig),
            when(op(ex, ">=", num(0)), concat(sig, call("REPLICATE", str("0"), ex), str(".0"))),
            when(
                op(pt, ">", num(0)),
                concat(
                    call("LEFT", sig, pt),
                    str("."),
                    call("SUBSTRING", sig, op(pt, "+", num(1)), num(20)))));
    TsqlExpr signed = concat(caseWhen(str(""), when(op(v, "<", num(0)), str("-"))), plain);
    TsqlExpr text = caseWhen(signed, when(op(v, "=", num(0)), str("0.0")));
    rows.add(new Apply("_w", "txt", cast(text, VARBINARY_MAX)));
    return new Subquery(rows, new Logic(false, loOk, hiOk), n, ref("_w", "txt"));
  }

  /**
   * {@code CONVERT(varchar(30), x, style)} parsed into its digits {@code [m…].[d]} (sign and point
   * removed) and exponent {@code [x…].[x]}, whatever the exponent's spelling.
   */
  private static Ref[] scientific(List<Source> rows, TsqlExpr x, int style, String suffix) {
    rows.add(new Apply("_f" + suffix, "s", convert(varchar(30), x, style)));
    Ref s = ref("_f" + suffix, "s");
    rows.add(new Apply("_g" + suffix, "e", call("PATINDEX", str("%[Ee]%"), s)));
    Ref e = ref("_g" + suffix, "e");
    TsqlExpr mantissa = call("LEFT", s, op(e, "-", num(1)));
    rows.add(
        new Apply(
            "_m" + suffix,
            "d",
            call("REPLACE", call("REPLACE", mantissa, str("-"), str("")), str("."), str(""))));
    rows.add(
        new Apply(
            "_x" + suffix, "x", cast(call("SUBSTRING", s, op(e, "+", num(1)), num(30)), INT)));
    return new Ref[] {ref("_m" + suffix, "d"), ref("_x" + suffix, "x")};
  }

  /** {@code TRY_CAST('<digits>E<q>' AS float|real) = ABS(v)}: judged at the column's precision. */
  private static TsqlExpr roundTrips(
      TsqlExpr digits, TsqlExpr q, boolean real, TsqlExpr magnitude) {
    TsqlExpr literal =
        concat(convert(varchar(20), digits, 0), str("E"), convert(varchar(12), q, 0));
    return op(tryCast(literal, real ? REAL : FLOAT), "=", magnitude);
  }

  private static TsqlExpr flag(TsqlExpr condition) {
    return caseWhen(num(0), when(condition, num(1)));
  }
}
