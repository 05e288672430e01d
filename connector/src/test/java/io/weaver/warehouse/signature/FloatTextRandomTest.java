package io.weaver.warehouse.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weaver.warehouse.signature.TsqlSignature.Column;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The T-SQL digit search (style 3's 17 digits, then the shortest length that round-trips) against
 * FloatingText's exact algorithm, through the encodings: every power of ten and its neighbours,
 * then random doubles and floats of every magnitude, fixed seed. CI checks 20,000 doubles and
 * 10,000 floats (a tenth of the time); {@code -Dweaver.floatText.doubles=200000
 * -Dweaver.floatText.floats=100000} is the long mode (docs/reliability.md), about 45 s.
 */
class FloatTextRandomTest {
  private static final int DOUBLES = Integer.getInteger("weaver.floatText.doubles", 20_000);
  private static final int FLOATS = Integer.getInteger("weaver.floatText.floats", 10_000);

  private static final List<Column> DOUBLE = List.of(Column.of("v", "float"));
  private static final List<Column> FLOAT = List.of(Column.of("v", "real"));

  private static double[] doubles(int n) {
    SplittableRandom random = new SplittableRandom(20261202L);
    double[] out = new double[n];
    int i = 0;
    // Powers of ten and their neighbours, every exponent.
    for (int e = -323; e <= 308 && i + 3 <= n; e++) {
      double p = Double.parseDouble("1e" + e);
      out[i++] = p;
      out[i++] = Math.nextUp(p);
      out[i++] = Math.nextDown(p);
    }
    while (i < n) {
      double d =
          switch (i % 6) {
            case 0 -> Double.longBitsToDouble(random.nextLong() & Long.MAX_VALUE); // any magnitude
            case 1 -> Double.longBitsToDouble(random.nextLong(1L << 52)); // subnormal
            case 2 -> (double) ((1L << 53) + random.nextLong(1L << 60)); // integers >= 2^53
            case 3 ->
                Double.parseDouble( // short decimals: where shorter candidates matter
                    random.nextLong(1, 100_000_000L) + "e" + random.nextInt(-320, 300));
            case 4 -> random.nextLong(1, 1L << 53) * Math.scalb(1.0, random.nextInt(-1074, 970));
            default -> random.nextDouble() * Math.pow(10, random.nextInt(-30, 30));
          };
      if (Double.isFinite(d) && d != 0) {
        out[i++] = random.nextBoolean() ? d : -d;
      }
    }
    return out;
  }

  private static float[] floats(int n) {
    SplittableRandom random = new SplittableRandom(1202L);
    float[] out = new float[n];
    int i = 0;
    for (int e = -45; e <= 38; e++) {
      float p = Float.parseFloat("1e" + e);
      out[i++] = p;
      out[i++] = Math.nextUp(p);
      out[i++] = Math.nextDown(p);
    }
    while (i < n) {
      float f =
          switch (i % 4) {
            case 0 -> Float.intBitsToFloat(random.nextInt() & Integer.MAX_VALUE);
            case 1 -> Float.intBitsToFloat(random.nextInt(1 << 23)); // subnormal
            case 2 -> Float.parseFloat(random.nextInt(1, 100_000) + "e" + random.nextInt(-45, 38));
            default -> (float) (random.nextDouble() * Math.pow(10, random.nextInt(-20, 20)));
          };
      if (Float.isFinite(f) && f != 0) {
        out[i++] = random.nextBoolean() ? f : -f;
      }
    }
    return out;
  }

  @Test
  void doublesMatchFloatingText() {
    List<String> mismatches = new ArrayList<>();
    List<String> subnormal = new ArrayList<>();
    double[] values = doubles(DOUBLES);
    int subnormals = 0;
    for (double d : values) {
      byte[] tsql = TsqlSignatureOracle.evaluate(DOUBLE, Arrays.asList(d));
      byte[] delta = DeltaBytes.of(DeltaBytes.dbl(d));
      boolean tiny = Math.abs(d) < Double.MIN_NORMAL;
      subnormals += tiny ? 1 : 0;
      if (!Arrays.equals(tsql, delta)) {
        (tiny ? subnormal : mismatches).add(describe(new BigDecimal(d), tsql, delta));
      }
    }
    System.out.println(
        "FloatTextRandomTest: "
            + mismatches.size()
            + " normal and "
            + subnormal.size()
            + " of "
            + subnormals
            + " subnormal doubles differ; e.g. "
            + subnormal.subList(0, Math.min(5, subnormal.size())));
    assertEquals(
        List.of(),
        mismatches.subList(0, Math.min(20, mismatches.size())),
        mismatches.size() + " of " + values.length + " doubles differ");
  }

  @Test
  void floatsMatchFloatingText() {
    List<String> mismatches = new ArrayList<>();
    float[] values = floats(FLOATS);
    for (float f : values) {
      byte[] tsql = TsqlSignatureOracle.evaluate(FLOAT, Arrays.asList(f));
      byte[] delta = DeltaBytes.of(DeltaBytes.flt(f));
      if (!Arrays.equals(tsql, delta)) {
        mismatches.add(describe(new BigDecimal(f), tsql, delta));
      }
    }
    assertEquals(
        List.of(),
        mismatches.subList(0, Math.min(20, mismatches.size())),
        mismatches.size() + " of " + values.length + " floats differ");
  }

  private static String describe(BigDecimal exact, byte[] tsql, byte[] delta) {
    return exact.toString() + ": tsql " + text(tsql) + " delta " + text(delta);
  }

  private static String text(byte[] encoded) {
    return encoded.length > 5
        ? new String(encoded, 5, encoded.length - 5, java.nio.charset.StandardCharsets.US_ASCII)
        : HexFormat.of().formatHex(encoded);
  }
}
