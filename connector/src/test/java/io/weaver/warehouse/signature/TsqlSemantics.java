package io.weaver.warehouse.signature;

import io.weaver.warehouse.signature.TsqlType.Family;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * The Java model of the T-SQL semantics {@link TsqlEvaluator} relies on: one method per construct,
 * each following the SQL Server documentation (cited per method). Only what the signature's
 * expressions use is modelled; anything else throws {@link UnsupportedOperationException} rather
 * than guess. Runtime values: {@link Long} (tinyint to bigint), {@link Boolean} (bit), {@link Dec}
 * (decimal/numeric/money), {@link Double} (float), {@link Float} (real), {@link Varchar}, {@link
 * String} (nvarchar), {@link Collated}, {@code byte[]} (binary/varbinary), {@link LocalDate},
 * {@link LocalDateTime} (datetime2, smalldatetime), {@link Ticks} (datetime), {@link
 * OffsetDateTime}, {@link LocalTime}, {@link UUID}.
 */
final class TsqlSemantics {

  private static final java.util.regex.Pattern NUMBER =
      java.util.regex.Pattern.compile("[+-]?[0-9]+(\\.[0-9]*)?([Ee][+-]?[0-9]+)?");

  private TsqlSemantics() {}

  /** The text without trailing blanks, as LEN counts and comparisons see it (docs). */
  private static String unpadded(String text) {
    int end = text.length();
    while (end > 0 && text.charAt(end - 1) == ' ') {
      end--;
    }
    return text.substring(0, end);
  }

  /** varchar text; {@code utf8} when its collation's code page is 65001 (a {@code _UTF8} one). */
  record Varchar(String text, boolean utf8) {
    byte[] bytes() {
      if (!utf8 && !text.chars().allMatch(c -> c < 0x80)) {
        throw new UnsupportedOperationException(
            "non-ASCII varchar outside a UTF-8 collation: its code page is not modelled");
      }
      return text.getBytes(utf8 ? StandardCharsets.UTF_8 : StandardCharsets.US_ASCII);
    }

    Varchar text(String newText) {
      return new Varchar(newText, utf8);
    }
  }

  /** nvarchar text labelled with an explicit collation ({@code x COLLATE name}). */
  record Collated(String text, String collation) {}

  /** decimal/numeric value with its declared precision (the scale is the value's own). */
  record Dec(BigDecimal value, int precision) {}

  /** datetime: a whole second and 1/300 s ticks, as the type stores it (docs: "datetime"). */
  record Ticks(LocalDateTime second, int ticks) {}

  /** How {@code CONVERT(varchar, float, 3)} spells the exponent; the docs show no example. */
  enum Exponent {
    /** {@code 1.0000000000000000E+000}, as SQL Server prints it in practice. */
    PADDED,
    /** {@code 1.0000000000000000e0}: a spelling the parsing must survive as well. */
    MINIMAL
  }

  // ---------------------------------------------------------------------------------- binding

  /**
   * A Java value as the column of {@code type} stores it; rejects what the column cannot hold (NaN,
   * a decimal needing rounding, a too-long char) so tests never feed impossible values.
   */
  static Object bind(TsqlType type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type.family()) {
      case TINYINT -> ranged(value, 0, 255);
      case SMALLINT -> ranged(value, Short.MIN_VALUE, Short.MAX_VALUE);
      case INT -> ranged(value, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case BIGINT -> ranged(value, Long.MIN_VALUE, Long.MAX_VALUE);
      case BIT -> (Boolean) value;
      case DECIMAL -> decimal((BigDecimal) value, type.precision(), type.scale());
      case MONEY -> decimal((BigDecimal) value, 19, 4);
      case SMALLMONEY -> decimal((BigDecimal) value, 10, 4);
      case FLOAT -> finite((Double) value);
      case REAL -> finite((Float) value);
      case DATE -> (LocalDate) value;
      case DATETIME2, SMALLDATETIME -> storedDatetime2(type, (LocalDateTime) value);
      case DATETIME -> ticks((LocalDateTime) value);
      case DATETIMEOFFSET -> (OffsetDateTime) value;
      case TIME -> (LocalTime) value;
      case CHAR, NCHAR -> padded((String) value, type.length(), type.family() == Family.CHAR);
      case VARCHAR -> new Varchar((String) value, true); // Fabric's default collation is UTF-8
      case NVARCHAR -> (String) value;
      case BINARY -> java.util.Arrays.copyOf((byte[]) value, type.length()); // zero-padded
      case VARBINARY -> ((byte[]) value).clone();
      case UNIQUEIDENTIFIER -> (UUID) value;
    };
  }

  private static Long ranged(Object value, long min, long max) {
    long v = ((Number) value).longValue();
    if (v < min || v > max) {
      throw new IllegalArgumentException(v + " is out of the column's range");
    }
    return v;
  }

  private static Dec decimal(BigDecimal value, int precision, int scale) {
    BigDecimal v;
    try {
      v = value.setScale(scale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(value + " needs rounding to scale " + scale, e);
    }
    if (v.precision() - v.scale() > precision - scale) {
      throw new IllegalArgumentException(value + " does not fit decimal(" + precision + ")");
    }
    return new Dec(v, precision);
  }

  private static <T extends Number> T finite(T value) {
    double d = value.doubleValue();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      // SQL Server float and real hold no NaN or infinity (docs: "float and real").
      throw new IllegalArgumentException("SQL Server cannot store " + value);
    }
    return value;
  }

  private static LocalDateTime storedDatetime2(TsqlType type, LocalDateTime value) {
    int digits = type.family() == Family.SMALLDATETIME ? -1 : type.scale();
    LocalDateTime stored =
        digits < 0 ? value.truncatedTo(ChronoUnit.MINUTES) : roundFraction(value, digits);
    if (!stored.equals(value)) {
      throw new IllegalArgumentException(value + " is not a value of " + type.sql());
    }
    return value;
  }

  /**
   * Docs ("datetime"): accuracy is rounded to increments of .000, .003 or .007 seconds, i.e. the
   * type stores 1/300 s ticks; the nearest tick of the given time is what the column holds.
   */
  private static Ticks ticks(LocalDateTime value) {
    long ticks = (value.getNano() * 300L + 500_000_000L) / 1_000_000_000L;
    LocalDateTime second = value.truncatedTo(ChronoUnit.SECONDS);
    return ticks == 300 ? new Ticks(second.plusSeconds(1), 0) : new Ticks(second, (int) ticks);
  }

  /** char(n) and nchar(n) store the text padded with blanks to n (docs: "char and varchar"). */
  private static Object padded(String text, int length, boolean narrow) {
    if (text.length() > length) {
      throw new IllegalArgumentException("'" + text + "' is longer than the column");
    }
    String stored = text + " ".repeat(length - text.length());
    return narrow ? new Varchar(stored, true) : stored;
  }

  // ------------------------------------------------------------------------------ conversions

  /**
   * {@code CAST}/{@code CONVERT} (docs: "CAST and CONVERT", its conversion table and styles).
   * {@code tryCast}: a failed conversion gives NULL instead of an error (docs: "TRY_CAST").
   */
  static Object convert(
      Object value, TsqlType type, int style, boolean tryCast, Exponent exponent) {
    if (value == null) {
      return null;
    }
    try {
      return switch (type.family()) {
        case VARBINARY, BINARY -> toBinary(value, type);
        case VARCHAR, CHAR -> toVarchar(value, type, style, exponent);
        case NVARCHAR -> toNvarchar(value);
        case INT, BIGINT -> toInteger(value, type.family() == Family.INT);
        case FLOAT -> toFloat(value);
        case REAL -> toReal(value);
        case DECIMAL -> toDecimal(value, type.precision(), type.scale());
        case DATETIME2 -> toDatetime2(value, type.scale());
        case TIME -> roundFraction((LocalTime) value, type.scale());
        default -> throw new UnsupportedOperationException("conversion to " + type.sql());
      };
    } catch (ArithmeticException | NumberFormatException e) {
      if (tryCast) {
        return null;
      }
      throw new IllegalStateException("T-SQL conversion error: " + value + " to " + type.sql(), e);
    }
  }

  /**
   * Docs: character data converts to binary as its stored bytes (varchar: in the collation's code
   * page; nvarchar: UTF-16LE); an int to binary(n) is its big-endian two's complement, "padded or
   * truncated on the left".
   */
  private static byte[] toBinary(Object value, TsqlType type) {
    byte[] bytes;
    if (value instanceof byte[] b) {
      bytes = b.clone();
    } else if (value instanceof Varchar v) {
      bytes = v.bytes();
    } else if (value instanceof String s) {
      bytes = s.getBytes(StandardCharsets.UTF_16LE);
    } else if (value instanceof Long l) {
      bytes = ByteBuffer.allocate(8).putLong(l).array(); // bigint; an int is its low 4 bytes
    } else {
      throw new UnsupportedOperationException("binary from " + value.getClass().getSimpleName());
    }
    if (type.length() == TsqlType.MAX) {
      return bytes;
    }
    int n = type.length();
    if (value instanceof Long) {
      return java.util.Arrays.copyOfRange(bytes, bytes.length - n, bytes.length);
    }
    return type.family() == Family.BINARY || bytes.length > n
        ? java.util.Arrays.copyOf(bytes, n)
        : bytes;
  }

  private static Varchar toVarchar(Object value, TsqlType type, int style, Exponent exponent) {
    Varchar text;
    boolean truncates = true; // docs: character and date/time results are cut to the length
    if (value instanceof Varchar v) {
      text = v;
    } else if (value instanceof String s) {
      text = new Varchar(s, false); // the database default collation's code page
    } else if (value instanceof Collated c) {
      text = new Varchar(c.text(), c.collation().toUpperCase(Locale.ROOT).endsWith("_UTF8"));
    } else if (value instanceof Long l) {
      text = new Varchar(Long.toString(l), false);
      truncates = false;
    } else if (value instanceof Dec d) {
      text = new Varchar(decimalText(d), false);
      truncates = false;
    } else if (value instanceof Double d && (style == 2 || style == 3)) {
      text = new Varchar(scientific(d, style == 2 ? 16 : 17, exponent), false);
      truncates = false;
    } else if (value instanceof LocalDate d && style == 23) {
      text = new Varchar(d.format(DateTimeFormatter.ISO_LOCAL_DATE), false);
    } else if (value instanceof LocalDateTime t && style == 126) {
      text =
          new Varchar(
              t.format(DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSS")), false);
    } else if (value instanceof LocalTime t && style == 108) {
      text = new Varchar(t.format(DateTimeFormatter.ofPattern("HH:mm:ss")), false);
    } else if (value instanceof UUID u && style == 0) {
      // Docs ("uniqueidentifier"): xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, shown in upper case.
      text = new Varchar(u.toString().toUpperCase(Locale.ROOT), false);
    } else {
      throw new UnsupportedOperationException(
          "varchar from " + value.getClass().getSimpleName() + " with style " + style);
    }
    int n = type.length();
    if (n == TsqlType.MAX || text.text().length() == n) {
      return text;
    }
    if (text.text().length() > n) {
      if (!truncates) {
        // Docs: a number too long for the character type is '*' (int) or an error (decimal,
        // float); the generator always leaves room, so this is a generator bug.
        throw new IllegalStateException("'" + text.text() + "' does not fit " + type.sql());
      }
      return text.text(text.text().substring(0, n));
    }
    return type.family() == Family.CHAR
        ? text.text(text.text() + " ".repeat(n - text.text().length()))
        : text;
  }

  /**
   * Docs: decimal to character data is the digits at the declared scale. Assumption, widely
   * reported and kept safe by the generator's fix-up: when precision equals scale the integer zero
   * is omitted ({@code .50}, {@code -.05}).
   */
  static String decimalText(Dec d) {
    String plain = d.value().toPlainString();
    if (d.precision() == d.value().scale()) {
      plain = plain.replaceFirst("^(-?)0\\.", "$1.");
    }
    return plain;
  }

  /** {@link #scientific} with style 3's 17 digits. */
  static String style3(double d, Exponent exponent) {
    return scientific(d, 17, exponent);
  }

  /**
   * Docs, styles 2 and 3 for float and real: "Always 16 digits" and "Always 17 digits. Use for
   * lossless conversion." Modelled as the exact binary value correctly rounded to that many
   * significant digits (half even), in scientific notation {@code d.ddd…E±exponent}.
   */
  static String scientific(double d, int significant, Exponent exponent) {
    if (d == 0) {
      return (Double.doubleToRawLongBits(d) < 0 ? "-" : "")
          + "0."
          + "0".repeat(significant - 1)
          + (exponent == Exponent.PADDED ? "E+000" : "e0");
    }
    BigDecimal rounded =
        new BigDecimal(d).round(new MathContext(significant, RoundingMode.HALF_EVEN));
    String digits = rounded.unscaledValue().abs().toString();
    int e = digits.length() - 1 - rounded.scale();
    digits = (digits + "0".repeat(significant)).substring(0, significant);
    String mantissa = (d < 0 ? "-" : "") + digits.charAt(0) + "." + digits.substring(1);
    if (exponent == Exponent.MINIMAL) {
      return mantissa + "e" + e;
    }
    String magnitude = Integer.toString(Math.abs(e));
    return mantissa
        + "E"
        + (e < 0 ? "-" : "+")
        + "0".repeat(Math.max(0, 3 - magnitude.length()))
        + magnitude;
  }

  private static String toNvarchar(Object value) {
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Varchar v) {
      return v.text(); // docs: varchar converts to nvarchar through its code page, losslessly
    }
    throw new UnsupportedOperationException("nvarchar from " + value.getClass().getSimpleName());
  }

  /** Docs: character data to int must be an integer literal (leading +/- and blanks allowed). */
  private static Long toInteger(Object value, boolean isInt) {
    long v;
    if (value instanceof Long l) {
      v = l;
    } else if (value instanceof Varchar s) {
      String t = s.text().strip();
      v = t.isEmpty() ? 0 : Long.parseLong(t); // docs: an empty string converts to 0
    } else {
      throw new UnsupportedOperationException("integer from " + value.getClass().getSimpleName());
    }
    if (isInt && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
      throw new ArithmeticException("int overflow");
    }
    return v;
  }

  /**
   * Character data to float: modelled as correctly rounded (as {@link Double#parseDouble}); the
   * docs do not say. Out of range is a conversion error (NULL under TRY_CAST).
   */
  private static Double toFloat(Object value) {
    if (value instanceof Float f) {
      return (double) f; // widening real to float is exact
    }
    if (value instanceof Long l) {
      return (double) l;
    }
    double d = Double.parseDouble(numeric(value));
    if (Double.isInfinite(d)) {
      throw new ArithmeticException("float overflow");
    }
    return d;
  }

  /** Character data to real: modelled as correctly rounded straight to real (see toFloat). */
  private static Float toReal(Object value) {
    float f = Float.parseFloat(numeric(value));
    if (Float.isInfinite(f)) {
      throw new ArithmeticException("real overflow");
    }
    return f;
  }

  private static String numeric(Object value) {
    String t = ((Varchar) value).text().strip();
    if (!NUMBER.matcher(t).matches()) {
      throw new NumberFormatException(t); // Java would also accept "NaN", "0x1p3", "1d"
    }
    return t;
  }

  /** Docs: converting to a decimal of smaller scale rounds (half away from zero). */
  private static Dec toDecimal(Object value, int precision, int scale) {
    BigDecimal v =
        value instanceof Dec d ? d.value() : value instanceof Long l ? BigDecimal.valueOf(l) : null;
    if (v == null) {
      throw new UnsupportedOperationException("decimal from " + value.getClass().getSimpleName());
    }
    v = v.setScale(scale, RoundingMode.HALF_UP);
    if (v.precision() - v.scale() > precision - scale) {
      throw new ArithmeticException("decimal overflow");
    }
    return new Dec(v, precision);
  }

  /**
   * To datetime2(n): datetime2/smalldatetime/datetimeoffset keep their (local) date and time,
   * rounded to n digits (docs: "datetime2", "datetimeoffset": conversion to datetime2 takes the
   * local part). datetime (docs, compatibility level 130+): the exact 1/300 s tick value, so {@code
   * .003} becomes {@code .003333} at 6 digits, not {@code .003000}.
   */
  private static LocalDateTime toDatetime2(Object value, int digits) {
    if (value instanceof LocalDateTime t) {
      return roundFraction(t, digits);
    }
    if (value instanceof OffsetDateTime t) {
      return roundFraction(t.toLocalDateTime(), digits);
    }
    if (value instanceof LocalDate d) {
      return d.atStartOfDay();
    }
    if (value instanceof Ticks t) {
      long nanos = (t.ticks() * 10_000_000L + 1) / 3; // 1/300 s, to the nearest nanosecond
      return roundFraction(t.second().plusNanos(nanos), digits);
    }
    throw new UnsupportedOperationException("datetime2 from " + value.getClass().getSimpleName());
  }

  /** Fractional seconds rounded half up to {@code digits}; assumption: SQL Server rounds. */
  static LocalDateTime roundFraction(LocalDateTime t, int digits) {
    long unit = (long) Math.pow(10, 9 - digits);
    long nanos = t.getNano();
    long rounded = (nanos + unit / 2) / unit * unit;
    return t.withNano(0).plusNanos(rounded);
  }

  private static LocalTime roundFraction(LocalTime t, int digits) {
    long unit = (long) Math.pow(10, 9 - digits);
    long rounded = (t.getNano() + unit / 2) / unit * unit;
    return t.withNano(0).plusNanos(rounded); // wraps past midnight (unverified)
  }

  // ------------------------------------------------------------------------------- functions

  /**
   * Docs ("DATEPART", fractional seconds example): {@code microsecond} is the fraction of the
   * second in whole microseconds, truncated ({@code .1234567} gives 123456).
   */
  static Object datePart(String part, Object value) {
    if (value == null) {
      return null;
    }
    if (!part.equals("microsecond")) {
      throw new UnsupportedOperationException("DATEPART " + part);
    }
    int nanos = value instanceof LocalDateTime t ? t.getNano() : ((LocalTime) value).getNano();
    return (long) (nanos / 1000);
  }

  /** Docs ("COLLATE"): labels nvarchar text; the code page applies when it becomes varchar. */
  static Object collate(Object value, String collation) {
    if (value == null) {
      return null;
    }
    if (value instanceof String s) {
      return new Collated(s, collation);
    }
    throw new UnsupportedOperationException("COLLATE on " + value.getClass().getSimpleName());
  }

  /** Scalar functions; every one returns NULL for a NULL argument (docs of each). */
  static Object call(String function, List<Object> args) {
    if (args.contains(null)) {
      return null;
    }
    return switch (function) {
      case "LEFT" -> left(text(args, 0), length(args, 1));
      case "RIGHT" -> {
        Varchar s = text(args, 0);
        int n = length(args, 1);
        yield s.text(n >= s.text().length() ? s.text() : s.text().substring(s.text().length() - n));
      }
      case "SUBSTRING" ->
          substring(text(args, 0), (int) (long) (Long) args.get(1), length(args, 2));
      case "LEN" -> (long) unpadded(text(args, 0).text()).length(); // trailing blanks
      case "REPLACE" ->
          text(args, 0)
              .text(text(args, 0).text().replace(text(args, 1).text(), text(args, 2).text()));
      case "REVERSE" ->
          text(args, 0).text(new StringBuilder(text(args, 0).text()).reverse().toString());
      case "REPLICATE" -> {
        long n = (Long) args.get(1);
        yield n < 0 ? null : text(args, 0).text(text(args, 0).text().repeat((int) n)); // docs
      }
      case "PATINDEX" -> patIndex(text(args, 0).text(), text(args, 1).text());
      case "LOWER" -> text(args, 0).text(text(args, 0).text().toLowerCase(Locale.ROOT));
      case "ABS" -> abs(args.get(0));
      case "DATALENGTH" -> dataLength(args.get(0));
      case "SWITCHOFFSET" ->
          ((OffsetDateTime) args.get(0)).withOffsetSameInstant(ZoneOffset.of(text(args, 1).text()));
      default -> throw new UnsupportedOperationException(function);
    };
  }

  private static Varchar text(List<Object> args, int i) {
    return (Varchar) args.get(i);
  }

  /** Docs (LEFT, RIGHT, SUBSTRING): a negative length is an error. */
  private static int length(List<Object> args, int i) {
    long n = (Long) args.get(i);
    if (n < 0) {
      throw new IllegalStateException("Invalid length parameter passed to the function");
    }
    return (int) n;
  }

  private static Varchar left(Varchar s, int n) {
    return s.text(n >= s.text().length() ? s.text() : s.text().substring(0, n));
  }

  /** Docs: a start below 1 still counts toward the length; past the end gives ''. */
  private static Varchar substring(Varchar s, int start, int length) {
    int from = Math.max(start, 1);
    long to = Math.min((long) start + length, s.text().length() + 1L);
    if (to <= from) {
      return s.text("");
    }
    return s.text(s.text().substring(from - 1, (int) to - 1));
  }

  /** Only patterns {@code %[set]%} (a set of characters and ranges): 1-based position or 0. */
  private static long patIndex(String pattern, String s) {
    if (!pattern.matches("%\\[[^\\]^]+\\]%")) {
      throw new UnsupportedOperationException("PATINDEX pattern " + pattern);
    }
    String set = pattern.substring(2, pattern.length() - 2);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      for (int j = 0; j < set.length(); j++) {
        boolean range = j + 2 < set.length() && set.charAt(j + 1) == '-';
        if (range ? c >= set.charAt(j) && c <= set.charAt(j + 2) : c == set.charAt(j)) {
          return i + 1;
        }
        if (range) {
          j += 2;
        }
      }
    }
    return 0;
  }

  private static Object abs(Object value) {
    if (value instanceof Double d) {
      return Math.abs(d);
    }
    if (value instanceof Float f) {
      return Math.abs(f);
    }
    if (value instanceof Long l) {
      return Math.absExact(l);
    }
    throw new UnsupportedOperationException("ABS of " + value.getClass().getSimpleName());
  }

  /**
   * Docs ("DATALENGTH"): bytes used; bigint for the max types, int otherwise. Modelled as a bigint
   * (a Long), which is why the generator casts it to int before binary(4).
   */
  private static Object dataLength(Object value) {
    if (value instanceof byte[] b) {
      return (long) b.length;
    }
    if (value instanceof Varchar v) {
      return (long) v.bytes().length;
    }
    if (value instanceof String s) {
      return 2L * s.length();
    }
    throw new UnsupportedOperationException("DATALENGTH of " + value.getClass().getSimpleName());
  }

  // ------------------------------------------------------------------------------- operators

  /**
   * {@code + - %} and comparisons. {@code +} concatenates binaries or character data and adds
   * numbers (docs: "+ (String Concatenation)", "+ (Addition)"); NULL yields NULL
   * (CONCAT_NULL_YIELDS_NULL is always ON in Fabric and by default in SQL Server). Comparisons of
   * character data ignore trailing blanks (docs: ANSI padding) and are modelled by code point,
   * which every collation agrees with for the ASCII digits compared here.
   */
  static Object operator(String op, Object a, Object b) {
    if (a == null || b == null) {
      return null;
    }
    if (a instanceof Boolean bit) {
      a = bit ? 1L : 0L; // docs: bit converts to int in a comparison with an int
    }
    switch (op) {
      case "+":
        if (a instanceof byte[] x && b instanceof byte[] y) {
          byte[] out = java.util.Arrays.copyOf(x, x.length + y.length);
          System.arraycopy(y, 0, out, x.length, y.length);
          return out;
        }
        if (a instanceof Varchar x && b instanceof Varchar y) {
          return new Varchar(x.text() + y.text(), x.utf8() || y.utf8());
        }
        return Math.addExact((Long) a, (Long) b);
      case "-":
        return Math.subtractExact((Long) a, (Long) b);
      case "%":
        return (Long) a % (Long) b;
      default:
        int c = compare(a, b);
        return switch (op) {
          case "=" -> c == 0;
          case "<>" -> c != 0;
          case "<" -> c < 0;
          case ">" -> c > 0;
          case "<=" -> c <= 0;
          case ">=" -> c >= 0;
          default -> throw new UnsupportedOperationException(op);
        };
    }
  }

  private static int compare(Object a, Object b) {
    if (a instanceof Varchar x && b instanceof Varchar y) {
      return unpadded(x.text()).compareTo(unpadded(y.text()));
    }
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof Float x && b instanceof Float y) {
      return x.floatValue() == y.floatValue() ? 0 : x < y ? -1 : 1; // -0 = 0
    }
    // Docs (data type precedence): an int compared with a float becomes a float.
    double x = ((Number) a).doubleValue();
    double y = ((Number) b).doubleValue();
    return x == y ? 0 : x < y ? -1 : 1;
  }
}
