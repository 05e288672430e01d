package io.weaver.catalyst.signature;

import java.security.MessageDigest;
import java.util.Arrays;

/**
 * The digest a row signature is computed with: it collects the row's whole {@link
 * SignatureEncoding} in a growable byte array (as {@link ByteCapture} does) and hashes it with
 * SHA-256 in one update when the digest is taken. The bytes hashed are exactly those the encoding
 * defines (the contract does not change); what changes is the cost: one SHA-256 update per row
 * instead of one per header byte, and the common scalars (integers, compact decimals, dates and
 * timestamps of years 0–9999) are written as ASCII straight into the array, without intermediate
 * strings or {@code java.time} objects.
 *
 * <p>Not thread-safe: one per task thread (generated code keeps one per partition; the interpreted
 * path one per thread).
 */
public final class RowBuffer extends ByteCapture {

  private static final byte[] DIGITS_00_99 = new byte[200];

  static {
    for (int i = 0; i < 100; i++) {
      DIGITS_00_99[2 * i] = (byte) ('0' + i / 10);
      DIGITS_00_99[2 * i + 1] = (byte) ('0' + i % 10);
    }
  }

  private static final long DAYS_0000_TO_1970 = 719_528L;
  private static final long DAYS_PER_CYCLE = 146_097L;

  private final MessageDigest sha256 = SignatureEncoding.newSha256();

  public RowBuffer() {
    super("weaver-row-signature");
  }

  /** The bytes collected so far (for tests). */
  byte[] collected() {
    return Arrays.copyOf(buffer, size);
  }

  @Override
  protected byte[] engineDigest() {
    sha256.update(buffer, 0, size);
    size = 0;
    return sha256.digest();
  }

  @Override
  protected void engineReset() {
    size = 0;
    sha256.reset();
  }

  @Override
  protected int engineGetDigestLength() {
    return 32;
  }

  // ------------------------------------------------------------------------- direct writers

  /** {@code 0x01} and the 4-byte big-endian {@code lengthOrCount}. */
  void header(int lengthOrCount) {
    ensure(5);
    putHeaderAt(size, lengthOrCount);
    size += 5;
  }

  /** Decimal text of an integral value, framed. */
  void integerText(long value) {
    ensure(5 + 20);
    int head = size;
    size += 5;
    int begin = size;
    // The negative magnitude covers Long.MIN_VALUE.
    long rest = value < 0 ? value : -value;
    if (value < 0) {
      buffer[size++] = '-';
    }
    int end = size + negativeDigitCount(rest);
    int p = end;
    do {
      buffer[--p] = (byte) ('0' - (rest % 10));
      rest /= 10;
    } while (rest != 0);
    size = end;
    putHeaderAt(head, size - begin);
  }

  /**
   * Plain text of {@code unscaled × 10^-scale} for {@code scale > 0}, framed (the same text as
   * {@link java.math.BigDecimal#toPlainString()} at that scale).
   */
  void decimalText(long unscaled, int scale) {
    long magnitude = Math.abs(unscaled); // callers exclude Long.MIN_VALUE
    int digits = magnitude == 0 ? 1 : negativeDigitCount(-magnitude);
    int integerDigits = digits - scale;
    int length =
        (unscaled < 0 ? 1 : 0) + (integerDigits <= 0 ? 2 + scale : digits + 1); // "0." + scale
    ensure(5 + length);
    putHeaderAt(size, length);
    size += 5;
    if (unscaled < 0) {
      buffer[size++] = '-';
    }
    int end = size + length - (unscaled < 0 ? 1 : 0);
    int p = end;
    long rest = magnitude;
    // fraction digits (zero-padded to the scale), then the point, then the integer part
    for (int i = 0; i < scale; i++) {
      buffer[--p] = (byte) ('0' + (rest % 10));
      rest /= 10;
    }
    buffer[--p] = '.';
    if (integerDigits <= 0) {
      buffer[--p] = '0';
    } else {
      do {
        buffer[--p] = (byte) ('0' + (rest % 10));
        rest /= 10;
      } while (rest != 0);
    }
    size = end;
  }

  /**
   * {@code yyyy-MM-dd} of a day number, framed; false (nothing written) when the year is outside
   * 0–9999, whose text {@link IsoText} writes.
   */
  boolean dateText(int daysSinceEpoch) {
    long civil = civil(daysSinceEpoch);
    if (civil < 0) {
      return false;
    }
    ensure(15);
    putHeaderAt(size, 10);
    size += 5;
    putDate(civil);
    return true;
  }

  /**
   * {@code yyyy-MM-ddTHH:mm:ss.ffffffZ} of microseconds since the epoch (UTC), framed; false
   * (nothing written) when the year is outside 0–9999.
   */
  boolean timestampText(long microsSinceEpoch) {
    long seconds = Math.floorDiv(microsSinceEpoch, 1_000_000L);
    int micros = (int) Math.floorMod(microsSinceEpoch, 1_000_000L);
    long days = Math.floorDiv(seconds, 86_400L);
    int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
    if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
      return false;
    }
    long civil = civil((int) days);
    if (civil < 0) {
      return false;
    }
    ensure(5 + 27);
    putHeaderAt(size, 27);
    size += 5;
    putDate(civil);
    buffer[size++] = 'T';
    putTwo(secondOfDay / 3600);
    buffer[size++] = ':';
    putTwo(secondOfDay / 60 % 60);
    buffer[size++] = ':';
    putTwo(secondOfDay % 60);
    buffer[size++] = '.';
    putTwo(micros / 10_000);
    putTwo(micros / 100 % 100);
    putTwo(micros % 100);
    buffer[size++] = 'Z';
    return true;
  }

  /**
   * The proleptic Gregorian date of a day number packed as {@code year * 10000 + month * 100 +
   * day}, or -1 when the year is outside 0–9999. Counts from 0000-03-01 so that the leap day ends
   * each 400-year cycle's years.
   */
  static long civil(int daysSinceEpoch) {
    long fromMarch = daysSinceEpoch + DAYS_0000_TO_1970 - 60; // days since 0000-03-01
    if (fromMarch < 0) {
      return -1; // before 0000-03-01: year 0's January and February and earlier
    }
    long cycle = fromMarch / DAYS_PER_CYCLE;
    long dayOfCycle = fromMarch - cycle * DAYS_PER_CYCLE; // 0 … 146096
    long yearOfCycle =
        (dayOfCycle - dayOfCycle / 1460 + dayOfCycle / 36524 - dayOfCycle / 146096) / 365;
    long dayOfYear = dayOfCycle - (365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100);
    long monthFromMarch = (5 * dayOfYear + 2) / 153; // 0 = March … 11 = February
    long day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
    long month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
    long year = cycle * 400 + yearOfCycle + (month <= 2 ? 1 : 0);
    if (year > 9999) {
      return -1;
    }
    return year * 10_000 + month * 100 + day;
  }

  private void putDate(long civil) {
    int year = (int) (civil / 10_000);
    int monthDay = (int) (civil % 10_000);
    putTwo(year / 100);
    putTwo(year % 100);
    buffer[size++] = '-';
    putTwo(monthDay / 100);
    buffer[size++] = '-';
    putTwo(monthDay % 100);
  }

  private void putTwo(int value) {
    buffer[size++] = DIGITS_00_99[2 * value];
    buffer[size++] = DIGITS_00_99[2 * value + 1];
  }

  private void putHeaderAt(int at, int lengthOrCount) {
    buffer[at] = SignatureEncoding.PRESENT;
    buffer[at + 1] = (byte) (lengthOrCount >>> 24);
    buffer[at + 2] = (byte) (lengthOrCount >>> 16);
    buffer[at + 3] = (byte) (lengthOrCount >>> 8);
    buffer[at + 4] = (byte) lengthOrCount;
  }

  /** Number of decimal digits of a value ≤ 0 given as its negative magnitude. */
  private static int negativeDigitCount(long negative) {
    int digits = 1;
    long bound = -10;
    while (digits < 19 && negative <= bound) {
      digits++;
      bound *= 10;
    }
    return digits;
  }
}
