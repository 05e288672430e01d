package io.weaver.staging;

import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlToken;
import io.weaver.metadata.sql.SqlTokenizer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Binds {@code :load_timestamp} and {@code :last_load_timestamp} in a Spark SQL statement by
 * replacing each marker token with {@code timestamp_micros(<n>)}, an exact instant whatever the
 * session time zone. Spark's own named parameters cannot be used: with Delta 4.2's parser in the
 * session they come back unbound ({@code UNBOUND_SQL_PARAMETER}). Markers inside strings and
 * comments are left alone, since the tokenizer understands both.
 */
public final class ParameterBinder {
  private ParameterBinder() {}

  public static String bind(String sql, Map<String, Instant> parameters) {
    List<SqlToken> tokens = SqlTokenizer.tokenize(sql, SqlDialect.SPARK, 1, 1);
    int[] lineStarts = lineStarts(sql);
    List<int[]> replacements = new ArrayList<>(); // start, end, index into values
    List<String> values = new ArrayList<>();
    for (int i = 0; i + 1 < tokens.size(); i++) {
      SqlToken colon = tokens.get(i);
      SqlToken name = tokens.get(i + 1);
      if (colon.isSymbol(":")
          && name.kind() == SqlToken.Kind.WORD
          && name.line() == colon.line()
          && name.column() == colon.column() + 1
          && parameters.containsKey(name.text().toLowerCase(java.util.Locale.ROOT))) {
        int start = offset(sql, lineStarts, colon.line(), colon.column());
        int end = offset(sql, lineStarts, name.line(), name.column()) + name.text().length();
        Instant value = parameters.get(name.text().toLowerCase(java.util.Locale.ROOT));
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, value);
        replacements.add(new int[] {start, end, values.size()});
        values.add("timestamp_micros(" + micros + "L)");
      }
    }
    StringBuilder out = new StringBuilder(sql);
    for (int i = replacements.size() - 1; i >= 0; i--) {
      int[] r = replacements.get(i);
      out.replace(r[0], r[1], values.get(r[2]));
    }
    return out.toString();
  }

  private static int[] lineStarts(String text) {
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        starts.add(i + 1);
      }
    }
    return starts.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int offset(String text, int[] lineStarts, int line, int column) {
    int start = lineStarts[line - 1];
    return text.offsetByCodePoints(start, column - 1);
  }
}
