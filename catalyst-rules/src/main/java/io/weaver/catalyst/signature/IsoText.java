package io.weaver.catalyst.signature;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * ISO-8601 text of dates and timestamps for the row signature, always in the proleptic Gregorian
 * calendar (Spark's since 3.0) and never through a session time zone.
 *
 * <p>Year rule (the same as {@code java.time}'s ISO printing): years 0 to 9999 are four digits,
 * zero-padded ({@code 0999}); years above 9999 get a leading {@code +} ({@code +10000}); negative
 * years (1 BC is year 0) are {@code -} and at least four digits ({@code -0001}).
 */
final class IsoText {

  private static final long MICROS_PER_SECOND = 1_000_000L;

  private IsoText() {}

  /** {@code yyyy-MM-dd} of a Spark date (days since 1970-01-01). */
  static byte[] date(int daysSinceEpoch) {
    LocalDate date = LocalDate.ofEpochDay(daysSinceEpoch);
    StringBuilder text = new StringBuilder(10);
    appendDate(text, date.getYear(), date.getMonthValue(), date.getDayOfMonth());
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * {@code yyyy-MM-ddTHH:mm:ss.ffffffZ} of microseconds since 1970-01-01T00:00:00Z; exactly six
   * fractional digits, always.
   */
  static byte[] timestamp(long microsSinceEpoch) {
    long seconds = Math.floorDiv(microsSinceEpoch, MICROS_PER_SECOND);
    int micros = (int) Math.floorMod(microsSinceEpoch, MICROS_PER_SECOND);
    LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
    StringBuilder text = new StringBuilder(27);
    appendDate(text, t.getYear(), t.getMonthValue(), t.getDayOfMonth());
    text.append('T');
    pad(text, t.getHour(), 2).append(':');
    pad(text, t.getMinute(), 2).append(':');
    pad(text, t.getSecond(), 2).append('.');
    pad(text, micros, 6).append('Z');
    return text.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static void appendDate(StringBuilder text, int year, int month, int day) {
    if (year > 9999) {
      text.append('+').append(year);
    } else if (year < 0) {
      text.append('-');
      pad(text, -year, 4);
    } else {
      pad(text, year, 4);
    }
    text.append('-');
    pad(text, month, 2).append('-');
    pad(text, day, 2);
  }

  private static StringBuilder pad(StringBuilder text, int value, int width) {
    String digits = Integer.toString(value);
    for (int i = digits.length(); i < width; i++) {
      text.append('0');
    }
    return text.append(digits);
  }
}
