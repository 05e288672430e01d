package io.weaver.catalyst.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.LocalDate;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The per-type canonical text and framing, without Spark. */
class SignatureEncodingTest {

  /** Canonical bytes of one scalar, captured instead of hashed. */
  private static String text(Consumer<MessageDigest> put) {
    ByteCapture capture = new ByteCapture();
    put.accept(capture);
    byte[] bytes = capture.take();
    assertEquals(SignatureEncoding.PRESENT, bytes[0]);
    int length =
        ((bytes[1] & 0xFF) << 24)
            | ((bytes[2] & 0xFF) << 16)
            | ((bytes[3] & 0xFF) << 8)
            | (bytes[4] & 0xFF);
    assertEquals(bytes.length - 5, length, "length prefix");
    return new String(bytes, 5, length, StandardCharsets.UTF_8);
  }

  @Test
  void integersAreDecimalText() {
    assertEquals("0", text(d -> SignatureEncoding.putLong(d, 0)));
    assertEquals("-42", text(d -> SignatureEncoding.putLong(d, -42)));
    assertEquals("9223372036854775807", text(d -> SignatureEncoding.putLong(d, Long.MAX_VALUE)));
    assertEquals("-9223372036854775808", text(d -> SignatureEncoding.putLong(d, Long.MIN_VALUE)));
  }

  @Test
  void decimalsArePlainAtTheDeclaredScale() {
    assertEquals("1.50", text(d -> SignatureEncoding.putDecimal(d, new BigDecimal("1.5"), 2)));
    assertEquals("1.50", text(d -> SignatureEncoding.putDecimal(d, 150L, 2)));
    assertEquals("-0.05", text(d -> SignatureEncoding.putDecimal(d, -5L, 2)));
    assertEquals("0.00", text(d -> SignatureEncoding.putDecimal(d, 0L, 2)));
    assertEquals("0.0000000000", text(d -> SignatureEncoding.putDecimal(d, BigDecimal.ZERO, 10)));
    assertEquals("12", text(d -> SignatureEncoding.putDecimal(d, 12L, 0)));
    assertEquals(
        "100000000000000000000",
        text(d -> SignatureEncoding.putDecimal(d, new BigDecimal("1E+20"), 0)));
    assertThrows(
        ArithmeticException.class,
        () -> text(d -> SignatureEncoding.putDecimal(d, new BigDecimal("1.555"), 2)));
  }

  @Test
  void doublesAreShortestRoundTripPlainText() {
    assertEquals("0.0", FloatingText.ofDouble(0.0));
    assertEquals("0.0", FloatingText.ofDouble(-0.0));
    assertEquals("NaN", FloatingText.ofDouble(Double.NaN));
    assertEquals("NaN", FloatingText.ofDouble(Double.longBitsToDouble(0x7ff8000000000123L)));
    assertEquals("NaN", FloatingText.ofDouble(Double.longBitsToDouble(0xfff0000000000001L)));
    assertEquals("Infinity", FloatingText.ofDouble(Double.POSITIVE_INFINITY));
    assertEquals("-Infinity", FloatingText.ofDouble(Double.NEGATIVE_INFINITY));
    assertEquals("1.0", FloatingText.ofDouble(1.0));
    assertEquals("-2.5", FloatingText.ofDouble(-2.5));
    assertEquals("0.1", FloatingText.ofDouble(0.1));
    assertEquals("0.30000000000000004", FloatingText.ofDouble(0.1 + 0.2));
    assertEquals("0.002", FloatingText.ofDouble(2.0e-3)); // JDK 17 prints 0.0020
    assertEquals("0.0000001", FloatingText.ofDouble(1.0e-7));
    assertEquals("12345678.9", FloatingText.ofDouble(12345678.9));
    assertEquals("100000000000000000000000.0", FloatingText.ofDouble(1.0e23));
    assertEquals("9007199254740991.0", FloatingText.ofDouble(9007199254740991.0));
    // One digit suffices (JDK 19+ prints 4.9E-324, which is not shortest).
    assertEquals("0." + "0".repeat(323) + "5", FloatingText.ofDouble(Double.MIN_VALUE));
    assertEquals(
        "17976931348623157" + "0".repeat(292) + ".0", FloatingText.ofDouble(Double.MAX_VALUE));
  }

  @Test
  void floatsAreJudgedAtFloatPrecision() {
    assertEquals("0.1", FloatingText.ofFloat(0.1f));
    assertEquals("0.10000000149011612", FloatingText.ofDouble(0.1f));
    assertEquals("0.0", FloatingText.ofFloat(-0.0f));
    assertEquals("NaN", FloatingText.ofFloat(Float.intBitsToFloat(0x7fc00001)));
    assertEquals("-Infinity", FloatingText.ofFloat(Float.NEGATIVE_INFINITY));
    assertEquals("16777216.0", FloatingText.ofFloat(16777216f));
    assertEquals(
        "340282350000000000000000000000000000000.0", FloatingText.ofFloat(Float.MAX_VALUE));
    assertEquals("0." + "0".repeat(44) + "1", FloatingText.ofFloat(Float.MIN_VALUE));
  }

  /** Shortest: parses back exactly, and no decimal with one digit fewer does. */
  @Test
  void randomDoublesAndFloatsAreShortestAndRoundTrip() {
    Random random = new Random(20240102L);
    for (int i = 0; i < 20_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        continue;
      }
      String text = FloatingText.ofDouble(d);
      assertEquals(d == 0 ? 0.0 : d, Double.parseDouble(text), text);
      assertNoShorter(new BigDecimal(Math.abs(d)), text, s -> Double.parseDouble(s) == Math.abs(d));
      float f = Float.intBitsToFloat(random.nextInt());
      if (Float.isNaN(f) || Float.isInfinite(f)) {
        continue;
      }
      String ftext = FloatingText.ofFloat(f);
      assertEquals(f == 0 ? 0.0f : f, Float.parseFloat(ftext), ftext);
      assertNoShorter(
          new BigDecimal((double) Math.abs(f)), ftext, s -> Float.parseFloat(s) == Math.abs(f));
    }
  }

  /** The short-text fast path must give exactly what the full search gives. */
  @Test
  void fastPathAgreesWithTheSearch() {
    Random random = new Random(7L);
    for (int i = 0; i < 20_000; i++) {
      int digits = 1 + random.nextInt(17);
      BigDecimal decimal =
          new BigDecimal(new java.math.BigInteger(60, random), random.nextInt(700) - 350)
              .round(new MathContext(digits));
      if (decimal.signum() == 0) {
        continue;
      }
      double d = decimal.doubleValue();
      if (d == 0 || Double.isInfinite(d)) {
        continue;
      }
      assertEquals(FloatingText.searched(d), FloatingText.ofDouble(d), decimal.toString());
      float f = decimal.floatValue();
      if (f != 0 && !Float.isInfinite(f)) {
        assertEquals(FloatingText.searched(f), FloatingText.ofFloat(f), decimal.toString());
      }
    }
  }

  private interface Parses {
    boolean back(String text);
  }

  private static void assertNoShorter(BigDecimal exact, String text, Parses parses) {
    if (exact.signum() == 0) {
      return;
    }
    int digits = new BigDecimal(text.replace("-", "")).stripTrailingZeros().precision();
    if (digits == 1) {
      return;
    }
    for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
      String shorter = exact.round(new MathContext(digits - 1, mode)).toString();
      assertTrue(!parses.back(shorter), text + " is not shortest: " + shorter + " parses back");
    }
  }

  @Test
  void datesAreIsoWithAFixedYearRule() {
    assertEquals("1970-01-01", text(d -> SignatureEncoding.putDate(d, 0)));
    assertEquals("1969-12-31", text(d -> SignatureEncoding.putDate(d, -1)));
    assertEquals("2024-02-29", text(d -> SignatureEncoding.putDate(d, epochDay(2024, 2, 29))));
    assertEquals("0999-01-01", text(d -> SignatureEncoding.putDate(d, epochDay(999, 1, 1))));
    assertEquals("0000-03-01", text(d -> SignatureEncoding.putDate(d, epochDay(0, 3, 1))));
    assertEquals("-0001-12-31", text(d -> SignatureEncoding.putDate(d, epochDay(-1, 12, 31))));
    assertEquals("9999-12-31", text(d -> SignatureEncoding.putDate(d, epochDay(9999, 12, 31))));
    assertEquals("+10000-01-01", text(d -> SignatureEncoding.putDate(d, epochDay(10000, 1, 1))));
  }

  private static int epochDay(int year, int month, int day) {
    return (int) LocalDate.of(year, month, day).toEpochDay();
  }

  @Test
  void timestampsAreUtcWithSixFractionalDigits() {
    assertEquals(
        "1970-01-01T00:00:00.000000Z", text(d -> SignatureEncoding.putTimestampMicros(d, 0)));
    assertEquals(
        "1969-12-31T23:59:59.999999Z", text(d -> SignatureEncoding.putTimestampMicros(d, -1)));
    assertEquals(
        "2024-01-02T03:04:05.000006Z",
        text(d -> SignatureEncoding.putTimestampMicros(d, 1_704_164_645_000_006L)));
    assertEquals(
        "9999-12-31T00:00:00.000000Z",
        text(d -> SignatureEncoding.putTimestampMicros(d, 253_402_214_400_000_000L)));
    assertEquals(
        "0001-01-01T00:00:00.000000Z",
        text(d -> SignatureEncoding.putTimestampMicros(d, -62_135_596_800_000_000L)));
  }

  @Test
  void booleansStringsAndBinary() {
    assertEquals("true", text(d -> SignatureEncoding.putBoolean(d, true)));
    assertEquals("false", text(d -> SignatureEncoding.putBoolean(d, false)));
    assertEquals("é€", text(d -> TestEncodings.putString(d, "é€")));
    ByteCapture capture = new ByteCapture();
    SignatureEncoding.putBinary(capture, new byte[] {0, (byte) 0xFF});
    assertEquals("0100000002" + "00ff", java.util.HexFormat.of().formatHex(capture.take()));
  }

  @Test
  void framingKeepsValuesApart() {
    assertNotEquals(strings(null, "a"), strings("a", null));
    assertNotEquals(strings("a,b", "c"), strings("a", "b,c"));
    assertNotEquals(strings("ab", ""), strings("a", "b"));
    assertNotEquals(strings("", null), strings(null, ""));
    assertEquals(
        "81269a7a379674012b1df92801db39bb4d38f9840916aaf7c0f349eec383bc22", strings(null, "a"));
    assertEquals(
        "817f71ba32af653fd7e80e138944f679691877c91acf00001ea9505bb017e8a5", strings("a", null));
    assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", strings());
  }

  private static String strings(String... values) {
    MessageDigest digest = SignatureEncoding.newSha256();
    for (String value : values) {
      if (value == null) {
        SignatureEncoding.putNull(digest);
      } else {
        TestEncodings.putString(digest, value);
      }
    }
    String hex = TestEncodings.finishHexString(digest);
    assertTrue(hex.matches("[0-9a-f]{64}"), hex);
    return hex;
  }
}
