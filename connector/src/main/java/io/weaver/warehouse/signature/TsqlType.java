package io.weaver.warehouse.signature;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An authored T-SQL column type, parsed into a family and its parameters: the row signature needs
 * to know the family (which canonical text to build) and the declared scale or length (decimals are
 * written at their declared scale, char(n) is stored padded). {@code length} is {@link #MAX} for
 * {@code (max)}; {@code precision} and {@code scale} are the decimal ones, or the fractional
 * seconds digits of the date/time families in {@code scale}.
 */
public record TsqlType(Family family, int length, int precision, int scale) {

  /** {@code (max)}. */
  public static final int MAX = -1;

  /** The supported families, with the spelling {@link #sql()} uses. */
  public enum Family {
    TINYINT,
    SMALLINT,
    INT,
    BIGINT,
    BIT,
    DECIMAL,
    MONEY,
    SMALLMONEY,
    FLOAT,
    REAL,
    DATE,
    DATETIME2,
    DATETIME,
    SMALLDATETIME,
    DATETIMEOFFSET,
    TIME,
    CHAR,
    VARCHAR,
    NCHAR,
    NVARCHAR,
    BINARY,
    VARBINARY,
    UNIQUEIDENTIFIER
  }

  static final String SUPPORTED =
      "tinyint, smallint, int, bigint, bit, decimal(p,s), numeric(p,s), money, smallmoney,"
          + " float, float(n), real, date, datetime2(n), datetime, smalldatetime,"
          + " datetimeoffset(n), time(n), char(n), varchar(n|max), nchar(n), nvarchar(n|max),"
          + " binary(n), varbinary(n|max), uniqueidentifier";

  private static final Pattern TEXT =
      Pattern.compile(
          "\\s*([a-z0-9]+)\\s*(?:\\(\\s*([a-z0-9]+)\\s*(?:,\\s*([0-9]+)\\s*)?\\))?\\s*");

  public TsqlType {
    if (family == null) {
      throw new IllegalArgumentException("a T-SQL type needs a family");
    }
  }

  public static TsqlType of(Family family) {
    return new TsqlType(family, 0, 0, 0);
  }

  public static TsqlType decimal(int precision, int scale) {
    return new TsqlType(Family.DECIMAL, 0, precision, scale);
  }

  public static TsqlType sized(Family family, int length) {
    return new TsqlType(family, length, 0, 0);
  }

  public static TsqlType fractional(Family family, int digits) {
    return new TsqlType(family, 0, 0, digits);
  }

  /**
   * Parses authored type text ({@code DECIMAL ( 10, 2 )}, {@code nvarchar(max)}, {@code float(24)}
   * …), case-insensitively. Omitted parameters take T-SQL's defaults: decimal(18,0), float(53),
   * datetime2(7), datetimeoffset(7), time(7), char/binary(1); a varchar/varbinary without a length
   * is (1) in a declaration, which is what this returns.
   *
   * @throws IllegalArgumentException naming the text and listing what is supported
   */
  public static TsqlType parse(String text) {
    Matcher m = TEXT.matcher(text == null ? "" : text.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw unsupported(text);
    }
    String name = m.group(1);
    String first = m.group(2);
    String second = m.group(3);
    try {
      return switch (name) {
        case "tinyint", "smallint", "int", "bigint", "bit", "money", "smallmoney" ->
            noArgs(text, first, Family.valueOf(name.toUpperCase(Locale.ROOT)));
        case "date", "datetime", "smalldatetime", "real", "uniqueidentifier" ->
            noArgs(text, first, Family.valueOf(name.toUpperCase(Locale.ROOT)));
        case "decimal", "numeric" -> decimalOf(text, first, second);
        case "float" -> floatOf(text, first, second);
        case "datetime2", "datetimeoffset", "time" -> {
          int digits = first == null ? 7 : number(text, first, second, 0, 7);
          yield fractional(Family.valueOf(name.toUpperCase(Locale.ROOT)), digits);
        }
        case "char", "nchar", "binary" -> {
          int limit = name.equals("nchar") ? 4000 : 8000;
          int length = first == null ? 1 : number(text, first, second, 1, limit);
          yield sized(Family.valueOf(name.toUpperCase(Locale.ROOT)), length);
        }
        case "varchar", "nvarchar", "varbinary" -> {
          int limit = name.equals("nvarchar") ? 4000 : 8000;
          int length =
              "max".equals(first) && second == null
                  ? MAX
                  : first == null ? 1 : number(text, first, second, 1, limit);
          yield sized(Family.valueOf(name.toUpperCase(Locale.ROOT)), length);
        }
        default -> throw unsupported(text);
      };
    } catch (NumberFormatException e) {
      throw unsupported(text);
    }
  }

  private static TsqlType noArgs(String text, String first, Family family) {
    if (first != null) {
      throw unsupported(text);
    }
    return of(family);
  }

  private static TsqlType decimalOf(String text, String first, String second) {
    if (first == null) {
      return decimal(18, 0);
    }
    int precision = number(text, first, null, 1, 38);
    int scale = second == null ? 0 : Integer.parseInt(second);
    if (scale > precision) {
      throw unsupported(text);
    }
    return decimal(precision, scale);
  }

  /** float(1..24) is real; float(25..53) and float are float (T-SQL's rule). */
  private static TsqlType floatOf(String text, String first, String second) {
    if (first == null) {
      return of(Family.FLOAT);
    }
    return of(number(text, first, second, 1, 53) <= 24 ? Family.REAL : Family.FLOAT);
  }

  private static int number(String text, String value, String second, int min, int max) {
    if (second != null || !value.chars().allMatch(Character::isDigit)) {
      throw unsupported(text);
    }
    int n = Integer.parseInt(value);
    if (n < min || n > max) {
      throw unsupported(text);
    }
    return n;
  }

  private static IllegalArgumentException unsupported(String text) {
    return new IllegalArgumentException(
        "Row signature does not support the T-SQL type '" + text + "'; supported: " + SUPPORTED);
  }

  /** The type as T-SQL text, e.g. {@code decimal(10,2)}, {@code varbinary(max)}. */
  public String sql() {
    String name = family.name().toLowerCase(Locale.ROOT);
    return switch (family) {
      case DECIMAL -> name + "(" + precision + "," + scale + ")";
      case DATETIME2, DATETIMEOFFSET, TIME -> name + "(" + scale + ")";
      case CHAR, VARCHAR, NCHAR, NVARCHAR, BINARY, VARBINARY ->
          name + "(" + (length == MAX ? "max" : Integer.toString(length)) + ")";
      default -> name;
    };
  }

  boolean isString() {
    return family == Family.CHAR
        || family == Family.VARCHAR
        || family == Family.NCHAR
        || family == Family.NVARCHAR;
  }
}
