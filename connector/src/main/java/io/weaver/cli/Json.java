package io.weaver.cli;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Minimal JSON text writer for CLI output: strings, numbers, booleans, null, lists and maps. */
public final class Json {
  private Json() {}

  /**
   * Writes a value: {@code Map} (iteration order kept), {@code List}, {@code String}, numbers,
   * booleans, null; anything else as its string form.
   */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    append(out, value);
    return out.toString();
  }

  private static void append(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      string(out, s);
    } else if (value instanceof Double d && (d.isNaN() || d.isInfinite())) {
      string(out, d.toString());
    } else if (value instanceof Float f && (f.isNaN() || f.isInfinite())) {
      string(out, f.toString());
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      out.append('{');
      Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        string(out, String.valueOf(e.getKey()));
        out.append(':');
        append(out, e.getValue());
        if (it.hasNext()) {
          out.append(',');
        }
      }
      out.append('}');
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        append(out, list.get(i));
      }
      out.append(']');
    } else {
      string(out, value.toString());
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
