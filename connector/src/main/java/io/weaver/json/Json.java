package io.weaver.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Every JSON document Weaver writes or reads — command output, the commit receipt in Delta's {@code
 * userMetadata}, Python API results, rejection rows — goes through this one class, on Jackson (the
 * JSON library Spark itself ships, so nothing is added to the classpath).
 *
 * <p>Values are plain Java: {@code Map} (iteration order kept), {@code List}, {@code String},
 * numbers, booleans, null; anything else is written as its string form, and a non-finite double as
 * the string {@code "NaN"}/{@code "Infinity"}, so every document is valid JSON.
 */
public final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static {
    MAPPER.getFactory().setCharacterEscapes(new LineSeparatorEscapes());
  }

  private Json() {}

  /** The compact JSON text of a plain value. */
  public static String write(Object value) {
    StringWriter out = new StringWriter();
    try (JsonGenerator generator = MAPPER.getFactory().createGenerator(out)) {
      write(generator, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  /**
   * Parses JSON text.
   *
   * @throws JsonProcessingException when the text is not JSON
   */
  public static JsonNode read(String text) throws JsonProcessingException {
    return MAPPER.readTree(text);
  }

  /** A parsed node as plain Java values ({@code Map}, {@code List}, strings, numbers, null). */
  public static Object plain(JsonNode node) {
    return MAPPER.convertValue(node, Object.class);
  }

  private static void write(JsonGenerator out, Object value) throws IOException {
    if (value == null) {
      out.writeNull();
    } else if (value instanceof String s) {
      out.writeString(s);
    } else if (value instanceof Double d && (d.isNaN() || d.isInfinite())) {
      out.writeString(d.toString());
    } else if (value instanceof Float f && (f.isNaN() || f.isInfinite())) {
      out.writeString(f.toString());
    } else if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      out.writeNumber(((Number) value).longValue());
    } else if (value instanceof Byte b) {
      out.writeNumber(b.intValue());
    } else if (value instanceof Number n) {
      // BigDecimal, double, float: their own decimal text, as Java prints them
      out.writeNumber(n.toString());
    } else if (value instanceof Boolean b) {
      out.writeBoolean(b);
    } else if (value instanceof Map<?, ?> map) {
      out.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.writeFieldName(String.valueOf(e.getKey()));
        write(out, e.getValue());
      }
      out.writeEndObject();
    } else if (value instanceof List<?> list) {
      out.writeStartArray();
      for (Object item : list) {
        write(out, item);
      }
      out.writeEndArray();
    } else {
      out.writeString(value.toString());
    }
  }

  /**
   * Jackson's standard escapes plus U+2028 and U+2029, which are valid in JSON but end a line in
   * JavaScript: output pasted into a notebook cell or a browser stays one string.
   */
  private static final class LineSeparatorEscapes extends CharacterEscapes {
    private final int[] ascii = standardAsciiEscapesForJSON();

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      if (ch == 0x2028 || ch == 0x2029) {
        return new SerializedString(String.format("\\u%04x", ch));
      }
      return null;
    }
  }
}
