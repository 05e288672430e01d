package io.weaver.catalyst.signature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link RowBuffer}'s direct writers produce exactly the bytes of the general encoding path (the
 * signature contract), value by value over every day of years 0–9999, their edges and random
 * values, and the digest equals SHA-256 of those bytes.
 */
class RowBufferTest {

  /** The bytes {@code put} feeds a digest: through RowBuffer's fast paths, and the general path. */
  private static void assertSameBytes(String what, Consumer<MessageDigest> put) {
    RowBuffer fast = new RowBuffer();
    put.accept(fast);
    ByteCapture general = new ByteCapture();
    put.accept(general);
    byte[] expected = general.take();
    byte[] actual = fast.collected();
    if (!java.util.Arrays.equals(expected, actual)) {
      assertEquals(
          HexFormat.of().formatHex(expected), HexFormat.of().formatHex(actual), what + " encoding");
    }
  }

  @Test
  void everyDayOfYearsZeroToTenThousandAndTheExtremes() {
    int first = (int) java.time.LocalDate.of(-2, 1, 1).toEpochDay();
    int last = (int) java.time.LocalDate.of(10_002, 12, 31).toEpochDay();
    for (int day = first; day <= last; day++) {
      int d = day;
      assertSameBytes("day " + d, digest -> SignatureEncoding.putDate(digest, d));
    }
    Random random = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      int d = random.nextInt();
      assertSameBytes("day " + d, digest -> SignatureEncoding.putDate(digest, d));
    }
    for (int d : new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1}) {
      assertSameBytes("day " + d, digest -> SignatureEncoding.putDate(digest, d));
    }
  }

  @Test
  void timestampsAcrossTheRange() {
    Random random = new Random(11);
    long[] edges = {
      Long.MIN_VALUE,
      Long.MAX_VALUE,
      0,
      -1,
      1,
      -1_000_000,
      999_999,
      253_402_300_799_999_999L, // 9999-12-31T23:59:59.999999
      253_402_300_800_000_000L, // 10000-01-01
      -62_167_219_200_000_000L, // 0000-01-01
      -62_167_219_200_000_001L,
      -62_162_035_200_000_000L, // 0000-03-01
      -62_162_035_200_000_001L,
      -12_219_292_800_000_000L // 1582-10-15
    };
    for (long micros : edges) {
      for (long delta = -3; delta <= 3; delta++) {
        long m = micros + delta;
        assertSameBytes("micros " + m, d -> SignatureEncoding.putTimestampMicros(d, m));
      }
    }
    for (int i = 0; i < 300_000; i++) {
      long m = random.nextLong();
      assertSameBytes("micros " + m, d -> SignatureEncoding.putTimestampMicros(d, m));
      // years 0–9999: the fast path's range
      long inRange = -62_167_219_200_000_000L + Math.floorMod(random.nextLong(), 315_537_897_600L);
      long mm = inRange * (1 + random.nextInt(2)) + random.nextInt(1_000_000);
      assertSameBytes("micros " + mm, d -> SignatureEncoding.putTimestampMicros(d, mm));
    }
  }

  @Test
  void integersAndCompactDecimals() {
    Random random = new Random(13);
    long[] edges = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, 9, 10, -10, 99, 100};
    for (long v : edges) {
      assertSameBytes("long " + v, d -> SignatureEncoding.putLong(d, v));
    }
    long power = 1;
    for (int k = 0; k <= 18; k++) {
      for (long v : new long[] {power - 1, power, power + 1, -power + 1, -power, -power - 1}) {
        assertSameBytes("long " + v, d -> SignatureEncoding.putLong(d, v));
        for (int scale = -2; scale <= 19; scale++) {
          int s = scale;
          assertSameBytes("decimal " + v + "e-" + s, d -> SignatureEncoding.putDecimal(d, v, s));
        }
      }
      power *= 10;
    }
    for (int i = 0; i < 300_000; i++) {
      long v = random.nextLong() >> random.nextInt(64);
      int s = random.nextInt(20);
      assertSameBytes("long " + v, d -> SignatureEncoding.putLong(d, v));
      assertSameBytes("decimal " + v + "e-" + s, d -> SignatureEncoding.putDecimal(d, v, s));
    }
    assertSameBytes("decimal min", d -> SignatureEncoding.putDecimal(d, Long.MIN_VALUE, 2));
    assertSameBytes(
        "big decimal",
        d -> SignatureEncoding.putDecimal(d, new BigDecimal("-12345678901234567890.12"), 2));
  }

  @Test
  void aWholeRowHashesToSha256OfItsEncoding() {
    Consumer<MessageDigest> row =
        d -> {
          TestEncodings.putString(d, "customer-42");
          SignatureEncoding.putNull(d);
          SignatureEncoding.putLong(d, -7);
          SignatureEncoding.putDecimal(d, 12345, 2);
          SignatureEncoding.putDouble(d, 0.1);
          SignatureEncoding.putBoolean(d, true);
          SignatureEncoding.putDate(d, 19_000);
          SignatureEncoding.putTimestampMicros(d, 1_700_000_000_123_456L);
          SignatureEncoding.beginArray(d, 2);
          SignatureEncoding.putLong(d, 1);
          SignatureEncoding.putNull(d);
        };
    assertSameBytes("row", row);
    MessageDigest reference = SignatureEncoding.newSha256();
    row.accept(reference);
    RowBuffer buffer = new RowBuffer();
    row.accept(buffer);
    assertArrayEquals(reference.digest(), buffer.digest());
    // reused after digest(): starts empty
    row.accept(buffer);
    byte[] again = buffer.digest();
    row.accept(reference);
    assertArrayEquals(reference.digest(), again);
    assertTrue(buffer.collected().length == 0);
  }
}
