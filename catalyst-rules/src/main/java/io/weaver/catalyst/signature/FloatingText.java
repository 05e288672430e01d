package io.weaver.catalyst.signature;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Canonical text of {@code float} and {@code double} values for the row signature.
 *
 * <p>Contract (see {@link SignatureEncoding}): the value is written with the fewest significant
 * decimal digits that parse back (correctly rounded) to exactly the same value; if several decimals
 * with that many digits do, the one nearest to the exact binary value is taken, ties to the even
 * last digit. The digits are written in plain positional notation (never an exponent), with at
 * least one digit on each side of the point: {@code 1.0}, {@code 0.001}, {@code
 * 100000000000000000000.0}, {@code -2.5}. Zero of either sign is {@code 0.0}; every NaN is {@code
 * NaN}; infinities are {@code Infinity} and {@code -Infinity}. A {@code float} is judged as a
 * {@code float} (0.1f is {@code 0.1}, not the digits of its widened double).
 *
 * <p>The JDK's {@code Double.toString} is not used because before JDK 19 it is not always shortest
 * (and from JDK 19 it prefers two digits over one). The digits come from {@link ShortestDigits}
 * (integer arithmetic); the exact {@link BigDecimal} search ({@link #searched(double)}) remains for
 * the few tiniest subnormals and as the tests' reference.
 */
final class FloatingText {

  private static final double TWO_53 = 9007199254740992.0;
  private static final float TWO_24 = 16777216.0f;

  private FloatingText() {}

  static String ofDouble(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0.0) {
      return "0.0";
    }
    double abs = Math.abs(d);
    String sign = d < 0 ? "-" : "";
    if (abs < TWO_53 && abs == Math.rint(abs)) {
      // Below 2^53 an integral double is its own shortest representation.
      return sign + (long) abs + ".0";
    }
    long bits = Double.doubleToRawLongBits(abs);
    int biased = (int) (bits >>> 52);
    long fraction = bits & (ShortestDigits.DOUBLE_C_MIN - 1);
    long c = biased == 0 ? fraction : fraction | ShortestDigits.DOUBLE_C_MIN;
    if (c < ShortestDigits.TINY) {
      return sign + searched(abs);
    }
    int q = biased == 0 ? ShortestDigits.DOUBLE_Q_MIN : biased - 1075;
    int[] exponent = new int[1];
    long digits =
        ShortestDigits.digits(
            c, q, ShortestDigits.DOUBLE_C_MIN, ShortestDigits.DOUBLE_Q_MIN, exponent);
    return plain(d < 0, digits, exponent[0]);
  }

  /** The search alone, without the short-text fast path; package-private for tests. */
  static String searched(double abs) {
    BigDecimal exact = new BigDecimal(abs);
    int bound = significantDigits(Double.toString(abs));
    return plain(shortest(exact, bound, 17, c -> Double.parseDouble(c.toString()) == abs));
  }

  static String ofFloat(float f) {
    if (Float.isNaN(f)) {
      return "NaN";
    }
    if (Float.isInfinite(f)) {
      return f > 0 ? "Infinity" : "-Infinity";
    }
    if (f == 0.0f) {
      return "0.0";
    }
    float abs = Math.abs(f);
    String sign = f < 0 ? "-" : "";
    if (abs < TWO_24 && abs == (float) Math.rint(abs)) {
      return sign + (long) abs + ".0";
    }
    int bits = Float.floatToRawIntBits(abs);
    int biased = bits >>> 23;
    long fraction = bits & (ShortestDigits.FLOAT_C_MIN - 1);
    long c = biased == 0 ? fraction : fraction | ShortestDigits.FLOAT_C_MIN;
    if (c < ShortestDigits.TINY) {
      return sign + searched(abs);
    }
    int q = biased == 0 ? ShortestDigits.FLOAT_Q_MIN : biased - 150;
    int[] exponent = new int[1];
    long digits =
        ShortestDigits.digits(
            c, q, ShortestDigits.FLOAT_C_MIN, ShortestDigits.FLOAT_Q_MIN, exponent);
    return plain(f < 0, digits, exponent[0]);
  }

  /** The search alone, without the short-text fast path; package-private for tests. */
  static String searched(float abs) {
    BigDecimal exact = new BigDecimal((double) abs); // widening a float is exact
    int bound = significantDigits(Float.toString(abs));
    return plain(shortest(exact, bound, 9, c -> Float.parseFloat(c.toString()) == abs));
  }

  private interface RoundTrip {
    boolean test(BigDecimal candidate);
  }

  /**
   * Having p digits that round-trip is monotone in p (p-digit decimals are also (p+1)-digit ones),
   * so walk down from the JDK's digit count until a length fails.
   */
  private static BigDecimal shortest(BigDecimal exact, int bound, int max, RoundTrip roundTrip) {
    int start = Math.min(bound, max);
    BigDecimal best = candidate(exact, start, roundTrip);
    while (best == null && start < max) {
      start++; // only if the JDK text did not round-trip; keeps the result JDK-independent
      best = candidate(exact, start, roundTrip);
    }
    for (int p = start - 1; p >= 1; p--) {
      BigDecimal shorter = candidate(exact, p, roundTrip);
      if (shorter == null) {
        break;
      }
      best = shorter;
    }
    return best;
  }

  /** The nearest p-digit decimal that round-trips, or null when none does. */
  private static BigDecimal candidate(BigDecimal exact, int p, RoundTrip roundTrip) {
    BigDecimal below = exact.round(new MathContext(p, RoundingMode.FLOOR));
    BigDecimal above = exact.round(new MathContext(p, RoundingMode.CEILING));
    boolean belowOk = roundTrip.test(below);
    boolean aboveOk = below.compareTo(above) == 0 ? belowOk : roundTrip.test(above);
    if (belowOk && aboveOk) {
      return exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
    }
    return belowOk ? below : aboveOk ? above : null;
  }

  /** {@code ±digits·10^exponent} in plain notation, as {@link #plain(BigDecimal)} writes it. */
  static String plain(boolean negative, long digits, int exponent) {
    while (digits % 10 == 0) {
      digits /= 10;
      exponent++;
    }
    String text = Long.toString(digits);
    int length = text.length();
    StringBuilder out = new StringBuilder(length + Math.abs(exponent) + 4);
    if (negative) {
      out.append('-');
    }
    if (exponent >= 0) {
      out.append(text);
      for (int i = 0; i < exponent; i++) {
        out.append('0');
      }
      return out.append(".0").toString();
    }
    int point = length + exponent; // digits before the point
    if (point > 0) {
      return out.append(text, 0, point).append('.').append(text, point, length).toString();
    }
    out.append("0.");
    for (int i = point; i < 0; i++) {
      out.append('0');
    }
    return out.append(text).toString();
  }

  private static String plain(BigDecimal positive) {
    BigDecimal stripped = positive.stripTrailingZeros();
    String text = stripped.toPlainString();
    return stripped.scale() <= 0 ? text + ".0" : text;
  }

  /** Significant digits of a JDK {@code toString} result such as {@code 1.2345E-7}. */
  private static int significantDigits(String jdkText) {
    int end = jdkText.indexOf('E');
    String mantissa = (end < 0 ? jdkText : jdkText.substring(0, end)).replace(".", "");
    int first = 0;
    while (first < mantissa.length() - 1 && mantissa.charAt(first) == '0') {
      first++;
    }
    int last = mantissa.length();
    while (last > first + 1 && mantissa.charAt(last - 1) == '0') {
      last--;
    }
    return last - first;
  }
}
