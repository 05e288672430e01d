package io.weaver.catalyst.signature;

import java.math.BigInteger;

/**
 * Shortest round-trip decimal digits of a positive finite {@code double} or {@code float} in
 * integer arithmetic (the Schubfach idea: scale the value and its rounding interval by one power of
 * ten, held to 126 bits, and pick a decimal from the scaled interval), for {@link FloatingText}.
 *
 * <p>For a binary value {@code v = c·2^q} the decimals that parse back to {@code v} are those in
 * its rounding interval {@code R = [(c - 1/2)·2^q, (c + 1/2)·2^q]} (closed when {@code c} is even,
 * open when odd, as parsing rounds half to even; the lower half-width is {@code 1/4} when {@code c}
 * is the smallest significand of a binade above the subnormals). With {@code k} the largest integer
 * such that {@code 10^k} is at most the width of {@code R}, {@code R} holds at least one multiple
 * of {@code 10^k} and at most one multiple of {@code 10^(k+1)}:
 *
 * <ul>
 *   <li>if it holds a multiple of {@code 10^(k+1)}, that decimal is the only one of the fewest
 *       digits (any shorter decimal is such a multiple too);
 *   <li>otherwise the fewest digits are those of multiples of {@code 10^k}, and the nearest to
 *       {@code v} of them is {@code floor} or {@code ceil} of {@code v/10^k}: whichever of the two
 *       lies in {@code R}, the nearer when both do, the even one on a tie.
 * </ul>
 *
 * <p>That is exactly {@link FloatingText}'s contract. {@code 4·v/10^k} and the interval's ends are
 * computed as {@code floor(g·x / 2^127)} "rounded to odd" (the lowest bit records an inexact
 * result), with {@code g} a 126-bit upper approximation of {@code 10^-k}: enough bits for every
 * comparison above to come out as if computed exactly (R. Giulietti, "The Schubfach way to render
 * doubles", 2020). The tables are computed once from {@link BigInteger} arithmetic.
 *
 * <p>The two smallest double subnormals (and the seven smallest float ones) carry too few bits for
 * the precision argument; {@link FloatingText} handles them by its exact search.
 */
final class ShortestDigits {
  /** Significands below this (subnormals only) are left to the exact search. */
  static final long TINY = 10;

  static final int DOUBLE_Q_MIN = -1074;
  static final long DOUBLE_C_MIN = 1L << 52;
  static final int FLOAT_Q_MIN = -149;
  static final long FLOAT_C_MIN = 1L << 23;

  private static final int K_MIN = -324;
  private static final int K_MAX = 292;
  private static final int Q_MIN = -1074;
  private static final int Q_MAX = 971;
  private static final long MASK_63 = (1L << 63) - 1;

  /** {@code g(k) = g1·2^63 + g0 = floor(10^-k · 2^(125 - flog2pow10(-k))) + 1}. */
  private static final long[] G1 = new long[K_MAX - K_MIN + 1];

  private static final long[] G0 = new long[K_MAX - K_MIN + 1];

  /** {@code floor(log10(2^q))}, indexed by {@code q - Q_MIN}. */
  private static final int[] LOG10_POW2 = new int[Q_MAX - Q_MIN + 1];

  /** {@code floor(log10(3/4 · 2^q))}, indexed by {@code q - Q_MIN}. */
  private static final int[] LOG10_THREE_QUARTERS_POW2 = new int[Q_MAX - Q_MIN + 1];

  /** {@code floor(log2(10^e))}, indexed by {@code e + K_MAX} ({@code e = -k}). */
  private static final int[] LOG2_POW10 = new int[K_MAX - K_MIN + 1];

  static {
    for (int q = Q_MIN; q <= Q_MAX; q++) {
      LOG10_POW2[q - Q_MIN] = floorLog10(BigInteger.ONE, q);
      LOG10_THREE_QUARTERS_POW2[q - Q_MIN] = floorLog10(BigInteger.valueOf(3), q - 2);
    }
    for (int e = -K_MAX; e <= -K_MIN; e++) {
      LOG2_POW10[e + K_MAX] = floorLog2Pow10(e);
    }
    BigInteger mask = BigInteger.ONE.shiftLeft(63).subtract(BigInteger.ONE);
    for (int k = K_MIN; k <= K_MAX; k++) {
      int e = -k;
      int shift = 125 - floorLog2Pow10(e);
      BigInteger g;
      if (e >= 0) {
        BigInteger p = BigInteger.TEN.pow(e);
        g = shift >= 0 ? p.shiftLeft(shift) : p.shiftRight(-shift);
      } else {
        g = BigInteger.ONE.shiftLeft(shift).divide(BigInteger.TEN.pow(-e));
      }
      g = g.add(BigInteger.ONE);
      G1[k - K_MIN] = g.shiftRight(63).longValueExact();
      G0[k - K_MIN] = g.and(mask).longValueExact();
    }
  }

  private ShortestDigits() {}

  /** {@code floor(log10(m · 2^q))} for a small positive integer {@code m}, exactly. */
  static int floorLog10(BigInteger m, int q) {
    if (q >= 0) {
      return m.shiftLeft(q).toString().length() - 1;
    }
    // m · 2^q = m · 5^-q / 10^-q
    return m.multiply(BigInteger.valueOf(5).pow(-q)).toString().length() - 1 + q;
  }

  /** {@code floor(log2(10^e))}, exactly. */
  static int floorLog2Pow10(int e) {
    if (e >= 0) {
      return BigInteger.TEN.pow(e).bitLength() - 1;
    }
    // 10^e = 1 / 10^-e, and 10^-e is not a power of two for e < 0
    return -BigInteger.TEN.pow(-e).bitLength();
  }

  /**
   * The digits of {@code c·2^q} (a positive finite value with {@code c >= TINY}) as {@code d·10^e}:
   * {@code d} is returned, {@code e} stored in {@code exponent[0]}. {@code cMin} and {@code qMin}
   * are the format's smallest normal significand and its smallest exponent.
   */
  static long digits(long c, int q, long cMin, int qMin, int[] exponent) {
    long out = c & 1;
    long cb = c << 2;
    long cbr = cb + 2;
    long cbl;
    int k;
    if (c != cMin || q == qMin) {
      cbl = cb - 2;
      k = LOG10_POW2[q - Q_MIN];
    } else {
      cbl = cb - 1;
      k = LOG10_THREE_QUARTERS_POW2[q - Q_MIN];
    }
    int h = q + LOG2_POW10[-k + K_MAX] + 2;
    long g1 = G1[k - K_MIN];
    long g0 = G0[k - K_MIN];
    long vb = roundToOdd(g1, g0, cb << h);
    long vbl = roundToOdd(g1, g0, cbl << h);
    long vbr = roundToOdd(g1, g0, cbr << h);

    long s = vb >> 2;
    exponent[0] = k;
    // One digit fewer: the multiple of 10^(k+1) below or above v, if exactly one lies in R.
    long sp10 = s / 10 * 10;
    long tp10 = sp10 + 10;
    boolean lowerIn = vbl + out <= sp10 << 2;
    boolean upperIn = (tp10 << 2) + out <= vbr;
    if (lowerIn != upperIn) {
      return lowerIn ? sp10 : tp10;
    }
    long t = s + 1;
    boolean sIn = vbl + out <= s << 2;
    boolean tIn = (t << 2) + out <= vbr;
    if (sIn != tIn) {
      return sIn ? s : t;
    }
    // Both lie in R: the nearer to v, the even one on a tie (vb is exact when it equals 4s + 2).
    long cmp = vb - ((s + t) << 1);
    return cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t;
  }

  /** {@code floor(g·cp / 2^127)} with its lowest bit set when the quotient is inexact. */
  private static long roundToOdd(long g1, long g0, long cp) {
    long x1 = Math.multiplyHigh(g0, cp);
    long y0 = g1 * cp;
    long y1 = Math.multiplyHigh(g1, cp);
    long z = (y0 >>> 1) + x1;
    long vbp = y1 + (z >>> 63);
    return vbp | (((z & MASK_63) + MASK_63) >>> 63);
  }
}
