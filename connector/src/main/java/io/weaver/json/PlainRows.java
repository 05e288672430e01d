package io.weaver.json;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import scala.collection.Iterable;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark rows as plain Java values (maps, lists, strings, numbers, booleans), ready for JSON, Python
 * and SQL alike; timestamps become ISO-8601 UTC text, binary Base64.
 */
public final class PlainRows {
  private PlainRows() {}

  public static Map<String, Object> row(Row row) {
    Map<String, Object> m = new LinkedHashMap<>();
    // Every value in field order: a query's result may repeat a name, so values are not read by it.
    StructField[] fields = row.schema().fields();
    List<Object> values = CollectionConverters.asJava(row.toSeq());
    for (int i = 0; i < fields.length; i++) {
      m.put(fields[i].name(), value(values.get(i)));
    }
    return m;
  }

  public static Object value(Object v) {
    if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Timestamp t) {
      return t.toInstant().toString();
    }
    if (v instanceof Instant i) {
      return i.toString();
    }
    if (v instanceof Date d) {
      return d.toLocalDate().toString();
    }
    if (v instanceof LocalDate || v instanceof LocalDateTime) {
      return v.toString();
    }
    if (v instanceof Row r) {
      return row(r);
    }
    if (v instanceof scala.collection.Map<?, ?> map) {
      Map<String, Object> m = new LinkedHashMap<>();
      CollectionConverters.asJava(map).forEach((k, val) -> m.put(String.valueOf(k), value(val)));
      return m;
    }
    if (v instanceof Iterable<?> seq) {
      List<Object> list = new ArrayList<>();
      CollectionConverters.asJava(seq).forEach(e -> list.add(value(e)));
      return list;
    }
    if (v instanceof byte[] bytes) {
      return java.util.Base64.getEncoder().encodeToString(bytes);
    }
    return v.toString();
  }
}
