package io.weaver.catalyst.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The integer algorithm ({@link ShortestDigits}) against the exact BigDecimal search it replaced,
 * on the values where shortest-digit algorithms go wrong: binade edges (the asymmetric interval),
 * subnormals, values next to powers of ten and of two, ties, and random bit patterns.
 */
class ShortestDigitsTest {

  private static void sameAsSearch(double d) {
    if (d == 0 || Double.isNaN(d) || Double.isInfinite(d)) {
      return;
    }
    double abs = Math.abs(d);
    String expected = (d < 0 ? "-" : "") + FloatingText.searched(abs);
    if (abs < 9007199254740992.0 && abs == Math.rint(abs)) {
      expected = (d < 0 ? "-" : "") + (long) abs + ".0";
    }
    assertEquals(
        expected, FloatingText.ofDouble(d), () -> "double bits " + Double.doubleToRawLongBits(d));
  }

  private static void sameAsSearch(float f) {
    if (f == 0 || Float.isNaN(f) || Float.isInfinite(f)) {
      return;
    }
    float abs = Math.abs(f);
    String expected = (f < 0 ? "-" : "") + FloatingText.searched(abs);
    if (abs < 16777216.0f && abs == (float) Math.rint(abs)) {
      expected = (f < 0 ? "-" : "") + (long) abs + ".0";
    }
    assertEquals(
        expected, FloatingText.ofFloat(f), () -> "float bits " + Float.floatToRawIntBits(f));
  }

  @Test
  void randomBitPatterns() {
    Random random = new Random(91L);
    for (int i = 0; i < 60_000; i++) {
      sameAsSearch(Double.longBitsToDouble(random.nextLong()));
      sameAsSearch(Float.intBitsToFloat(random.nextInt()));
    }
  }

  @Test
  void everyBinadeEdgeAndNeighbours() {
    for (long e = 0; e < 2047; e++) {
      long base = e << 52;
      for (long delta = -3; delta <= 3; delta++) {
        long bits = base + delta;
        if (bits > 0 && bits < 0x7ff0000000000000L) {
          sameAsSearch(Double.longBitsToDouble(bits));
        }
      }
    }
    for (int e = 0; e < 255; e++) {
      int base = e << 23;
      for (int delta = -3; delta <= 3; delta++) {
        int bits = base + delta;
        if (bits > 0 && bits < 0x7f800000) {
          sameAsSearch(Float.intBitsToFloat(bits));
        }
      }
    }
  }

  @Test
  void smallAndLargeSubnormals() {
    for (long c = 1; c < 20_000; c++) {
      sameAsSearch(Double.longBitsToDouble(c));
      sameAsSearch(Double.longBitsToDouble((1L << 52) - c));
    }
    for (int c = 1; c < 20_000; c++) {
      sameAsSearch(Float.intBitsToFloat(c));
      sameAsSearch(Float.intBitsToFloat((1 << 23) - c));
    }
  }

  @Test
  void nextToPowersOfTenAndShortDecimals() {
    for (int p = -325; p <= 309; p++) {
      double d = Double.parseDouble("1e" + p);
      for (int step = -3; step <= 3; step++) {
        long bits = Double.doubleToRawLongBits(d) + step;
        if (bits > 0 && bits < 0x7ff0000000000000L) {
          sameAsSearch(Double.longBitsToDouble(bits));
        }
      }
      float f = Float.parseFloat("1e" + Math.max(-46, Math.min(39, p)));
      for (int step = -3; step <= 3; step++) {
        int bits = Float.floatToRawIntBits(f) + step;
        if (bits > 0 && bits < 0x7f800000) {
          sameAsSearch(Float.intBitsToFloat(bits));
        }
      }
    }
    Random random = new Random(5L);
    for (int i = 0; i < 30_000; i++) {
      int digits = 1 + random.nextInt(17);
      BigDecimal decimal =
          new BigDecimal(new java.math.BigInteger(60, random), random.nextInt(700) - 350)
              .round(new MathContext(digits));
      double d = decimal.doubleValue();
      sameAsSearch(d);
      sameAsSearch(-Math.nextUp(d));
      sameAsSearch(decimal.floatValue());
    }
  }

  @Test
  void typicalColumnValues() {
    for (long id = 1; id < 50_000; id++) {
      sameAsSearch(id / 3.0);
      sameAsSearch(id * 0.01);
      sameAsSearch(id / 7.0 - 1000);
      sameAsSearch((float) (id % 1000) / 8);
    }
  }

  @Test
  void tablesAreExact() {
    // A few hand-checked values of the exact helpers behind the tables.
    assertEquals(0, ShortestDigits.floorLog10(java.math.BigInteger.ONE, 0));
    assertEquals(-324, ShortestDigits.floorLog10(java.math.BigInteger.ONE, -1074));
    assertEquals(292, ShortestDigits.floorLog10(java.math.BigInteger.ONE, 971));
    assertEquals(-1, ShortestDigits.floorLog10(java.math.BigInteger.valueOf(3), -2)); // 0.75
    assertEquals(3, ShortestDigits.floorLog2Pow10(1));
    assertEquals(-4, ShortestDigits.floorLog2Pow10(-1));
    assertEquals(1076, ShortestDigits.floorLog2Pow10(324));
  }
}
