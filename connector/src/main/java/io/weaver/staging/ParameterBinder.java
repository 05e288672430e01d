package io.weaver.staging;

import io.weaver.metadata.sql.SqlDialect;
import io.weaver.metadata.sql.SqlToken;
import io.weaver.metadata.sql.SqlTokenizer;
import io.weaver.metadata.sql.TextOffsets;
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
    Map<String, String> texts = new java.util.HashMap<>();
    parameters.forEach(
        (name, value) ->
            texts.put(
                name,
                "timestamp_micros(" + ChronoUnit.MICROS.between(Instant.EPOCH, value) + "L)"));
    return replaceMarkers(sql, SqlDialect.SPARK, texts);
  }

  /**
   * Replaces each {@code :name} marker whose lowercase name is a key of {@code replacements} with
   * its text; markers inside strings, quoted identifiers and comments of {@code dialect} stay.
   */
  public static String replaceMarkers(
      String sql, SqlDialect dialect, Map<String, String> replacements) {
    List<SqlToken> tokens = SqlTokenizer.tokenize(sql, dialect, 1, 1);
    TextOffsets offsets = new TextOffsets(sql);
    List<int[]> spans = new ArrayList<>(); // start, end, index into values
    List<String> values = new ArrayList<>();
    for (int i = 0; i + 1 < tokens.size(); i++) {
      SqlToken colon = tokens.get(i);
      SqlToken name = tokens.get(i + 1);
      String key = name.text().toLowerCase(java.util.Locale.ROOT);
      if (colon.isSymbol(":")
          && name.kind() == SqlToken.Kind.WORD
          && name.line() == colon.line()
          && name.column() == colon.column() + 1
          && replacements.containsKey(key)) {
        int start = offsets.start(colon);
        int end = offsets.end(name);
        spans.add(new int[] {start, end, values.size()});
        values.add(replacements.get(key));
      }
    }
    StringBuilder out = new StringBuilder(sql);
    for (int i = spans.size() - 1; i >= 0; i--) {
      int[] r = spans.get(i);
      out.replace(r[0], r[1], values.get(r[2]));
    }
    return out.toString();
  }
}
