package io.weaver.catalyst.signature;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The canonical, unambiguous byte encoding behind the row signature (docs/table-contract.md,
 * "Managed columns"), fed into a SHA-256 {@link MessageDigest}. <b>This is a compatibility
 * contract: a signature stored by one Weaver version must be reproduced by every later one, so
 * nothing here may ever change.</b> Golden vectors in the tests pin it.
 *
 * <h2>Framing</h2>
 *
 * The signature is SHA-256 over the concatenation of the encodings of the columns, in order, with
 * nothing before, between or after them (no column count). Each value is encoded as:
 *
 * <ul>
 *   <li>null: the single byte {@code 0x00};
 *   <li>a scalar: {@code 0x01}, the length in bytes of its canonical text as a 4-byte big-endian
 *       integer, then those bytes;
 *   <li>an array: {@code 0x01}, the number of elements (4-byte big-endian), then each element
 *       encoded as a value (so a null element is {@code 0x00});
 *   <li>a map: {@code 0x01}, the number of entries (4-byte big-endian), then for each entry its key
 *       encoded as a value followed by its value encoded as a value, entries ordered by the
 *       unsigned lexicographic order of the key's encoding (ties, which Spark's map building
 *       normally prevents, by the value's encoding) — the map's own entry order never matters;
 *   <li>a struct: {@code 0x01}, the number of fields (4-byte big-endian), then each field encoded
 *       as a value, in the declared field order. Field names are not encoded.
 * </ul>
 *
 * The reader always knows the column types, so the count after {@code 0x01} is never confused with
 * a byte length.
 *
 * <h2>Canonical text of scalars</h2>
 *
 * <ul>
 *   <li>string: its UTF-8 bytes, as stored (no normalisation, no trimming);
 *   <li>byte, short, int, long: decimal text, {@code -} for negatives, no leading zeros or {@code
 *       +} ({@code 0}, {@code -42});
 *   <li>decimal: {@link BigDecimal#toPlainString()} at the column's declared scale ({@code 1.5} in
 *       {@code decimal(10,2)} is {@code 1.50}; zero at scale 2 is {@code 0.00}); never an exponent;
 *   <li>float, double: the shortest round-trip text defined by {@link FloatingText}: fewest
 *       significant digits that parse back to the same value (nearest, ties to even), plain
 *       notation with a digit on each side of the point ({@code 1.0}, {@code 0.1}, {@code 1.0E-7}
 *       is {@code 0.0000001}); {@code -0.0} is {@code 0.0}; every NaN is {@code NaN}; {@code
 *       Infinity}, {@code -Infinity}; a float is judged at float precision;
 *   <li>boolean: {@code true} or {@code false};
 *   <li>date: ISO {@code yyyy-MM-dd}, proleptic Gregorian, with {@link IsoText}'s year rule ({@code
 *       0999-01-01}, {@code +10000-01-01}, {@code -0001-01-01});
 *   <li>timestamp and timestamp_ntz: the stored microseconds since the epoch as {@code
 *       yyyy-MM-ddTHH:mm:ss.ffffffZ} in UTC, exactly six fractional digits, same year rule,
 *       independent of the session time zone;
 *   <li>binary: the bytes themselves.
 * </ul>
 *
 * All text other than strings is ASCII. The per-type methods here need no Spark classes; {@link
 * CatalystEncoding} adapts Spark's internal values to them.
 */
public final class SignatureEncoding {

  /** Encoding of a null value. */
  public static final byte NULL = 0x00;

  /** Prefix of every non-null value. */
  public static final byte PRESENT = 0x01;

  private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private SignatureEncoding() {}

  /** A fresh SHA-256 digest. */
  public static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }

  /** Completes the digest (and resets it) and returns 64 lowercase hex characters as ASCII. */
  public static byte[] finishHex(MessageDigest digest) {
    byte[] hash = digest.digest();
    byte[] hex = new byte[hash.length * 2];
    for (int i = 0; i < hash.length; i++) {
      hex[2 * i] = HEX[(hash[i] >> 4) & 0xF];
      hex[2 * i + 1] = HEX[hash[i] & 0xF];
    }
    return hex;
  }

  public static void putNull(MessageDigest digest) {
    digest.update(NULL);
  }

  /** {@code 0x01} and a 4-byte big-endian length or count: the head of every non-null value. */
  public static void putHeader(MessageDigest digest, int lengthOrCount) {
    if (digest instanceof RowBuffer buffer) {
      buffer.header(lengthOrCount);
      return;
    }
    digest.update(PRESENT);
    digest.update((byte) (lengthOrCount >>> 24));
    digest.update((byte) (lengthOrCount >>> 16));
    digest.update((byte) (lengthOrCount >>> 8));
    digest.update((byte) lengthOrCount);
  }

  /** A scalar whose canonical bytes are {@code bytes[offset, offset + length)}. */
  public static void putBytes(MessageDigest digest, byte[] bytes, int offset, int length) {
    putHeader(digest, length);
    digest.update(bytes, offset, length);
  }

  /** Binary value: the raw bytes. */
  public static void putBinary(MessageDigest digest, byte[] bytes) {
    putBytes(digest, bytes, 0, bytes.length);
  }

  /** Any integral value (byte, short, int, long): decimal text. */
  public static void putLong(MessageDigest digest, long value) {
    if (digest instanceof RowBuffer buffer) {
      buffer.integerText(value);
      return;
    }
    byte[] text = new byte[20];
    int start = text.length;
    // Work on the negative magnitude so that Long.MIN_VALUE needs no special case.
    long rest = value < 0 ? value : -value;
    do {
      text[--start] = (byte) ('0' - (rest % 10));
      rest /= 10;
    } while (rest != 0);
    if (value < 0) {
      text[--start] = '-';
    }
    putBytes(digest, text, start, text.length - start);
  }

  public static void putBoolean(MessageDigest digest, boolean value) {
    putBinary(digest, value ? TRUE : FALSE);
  }

  public static void putDouble(MessageDigest digest, double value) {
    putAscii(digest, FloatingText.ofDouble(value));
  }

  public static void putFloat(MessageDigest digest, float value) {
    putAscii(digest, FloatingText.ofFloat(value));
  }

  /**
   * Decimal value written at the declared {@code scale}. A value that needs rounding to reach that
   * scale is not a value of the column, so it is rejected rather than silently changed.
   */
  public static void putDecimal(MessageDigest digest, BigDecimal value, int scale) {
    putAscii(digest, value.setScale(scale, RoundingMode.UNNECESSARY).toPlainString());
  }

  /** Decimal given as unscaled digits and the declared scale (Spark's compact decimals). */
  public static void putDecimal(MessageDigest digest, long unscaled, int scale) {
    if (scale <= 0 || unscaled == Long.MIN_VALUE) {
      putDecimal(digest, BigDecimal.valueOf(unscaled, scale), scale);
      return;
    }
    if (digest instanceof RowBuffer buffer) {
      buffer.decimalText(unscaled, scale);
      return;
    }
    String digits = Long.toString(Math.abs(unscaled));
    StringBuilder text = new StringBuilder(digits.length() + scale + 3);
    if (unscaled < 0) {
      text.append('-');
    }
    int integerDigits = digits.length() - scale;
    if (integerDigits <= 0) {
      text.append("0.");
      for (int i = integerDigits; i < 0; i++) {
        text.append('0');
      }
      text.append(digits);
    } else {
      text.append(digits, 0, integerDigits)
          .append('.')
          .append(digits, integerDigits, digits.length());
    }
    putAscii(digest, text.toString());
  }

  /** Date given as days since 1970-01-01 (Spark's representation). */
  public static void putDate(MessageDigest digest, int daysSinceEpoch) {
    if (digest instanceof RowBuffer buffer && buffer.dateText(daysSinceEpoch)) {
      return;
    }
    putBinary(digest, IsoText.date(daysSinceEpoch));
  }

  /** Timestamp or timestamp_ntz given as microseconds since 1970-01-01T00:00:00 (UTC). */
  public static void putTimestampMicros(MessageDigest digest, long microsSinceEpoch) {
    if (digest instanceof RowBuffer buffer && buffer.timestampText(microsSinceEpoch)) {
      return;
    }
    putBinary(digest, IsoText.timestamp(microsSinceEpoch));
  }

  /** Head of a non-null array of {@code count} elements; the elements follow as values. */
  public static void beginArray(MessageDigest digest, int count) {
    putHeader(digest, count);
  }

  /** Head of a non-null map of {@code count} entries; the sorted entries follow. */
  public static void beginMap(MessageDigest digest, int count) {
    putHeader(digest, count);
  }

  /** Head of a non-null struct of {@code fieldCount} fields; the fields follow as values. */
  public static void beginStruct(MessageDigest digest, int fieldCount) {
    putHeader(digest, fieldCount);
  }

  private static void putAscii(MessageDigest digest, String text) {
    putBinary(digest, text.getBytes(StandardCharsets.US_ASCII));
  }
}
