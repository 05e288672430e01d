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
 * <p>The JDK's {@code Double.toString} is not used for the digits because before JDK 19 it is not
 * always shortest; it only bounds the search, so the result is the same on every JDK.
 */
final class FloatingText {

  private static final double TWO_53 = 9007199254740992.0;
  private static final float TWO_24 = 16777216.0f;

  /**
   * Distinct decimals of at most this many significant digits never parse to the same double
   * (DBL_DIG; normal numbers only — subnormals carry fewer digits), so a JDK text this short is the
   * only one of its length and nothing shorter can round-trip: it is the answer, and the search is
   * skipped.
   */
  private static final int DOUBLE_UNIQUE_DIGITS = 15;

  /** FLT_DIG, the same argument for floats. */
  private static final int FLOAT_UNIQUE_DIGITS = 6;

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
    String jdk = Double.toString(abs);
    int bound = significantDigits(jdk);
    if (bound <= DOUBLE_UNIQUE_DIGITS && abs >= Double.MIN_NORMAL) {
      return sign + plain(new BigDecimal(jdk));
    }
    return sign + searched(abs);
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
    String jdk = Float.toString(abs);
    if (significantDigits(jdk) <= FLOAT_UNIQUE_DIGITS && abs >= Float.MIN_NORMAL) {
      return sign + plain(new BigDecimal(jdk));
    }
    return sign + searched(abs);
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
