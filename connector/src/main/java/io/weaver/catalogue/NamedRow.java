package io.weaver.catalogue;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A Spark row read by field name: catalogue rows, and rows Delta returns ({@code DESCRIBE HISTORY},
 * {@code DESCRIBE DETAIL}). Reading by name keeps a reader right when a column moves; an unknown
 * name fails with the row's field names. Absent values are {@code null}, an empty {@code Optional}
 * or an empty list or map (copies, unmodifiable), as each accessor says.
 */
public final class NamedRow {
  private final Row row;

  private NamedRow(Row row) {
    if (row.schema() == null) {
      throw new IllegalArgumentException("a row read by name needs its schema: " + row);
    }
    this.row = row;
  }

  public static NamedRow of(Row row) {
    return new NamedRow(row);
  }

  public boolean isNull(String name) {
    return value(name) == null;
  }

  /** The value as Spark holds it ({@code null} when absent). */
  public Object value(String name) {
    return row.getAs(name);
  }

  public String string(String name) {
    return (String) value(name);
  }

  public Optional<String> optionalString(String name) {
    return Optional.ofNullable(string(name));
  }

  /** A non-null integer column (int or bigint); null fails. */
  public long longValue(String name) {
    Object v = value(name);
    if (v == null) {
      throw new IllegalStateException("column " + name + " is null");
    }
    return ((Number) v).longValue();
  }

  /** An integer column (int or bigint), or {@code absent} when null. */
  public long longOr(String name, long absent) {
    Object v = value(name);
    return v == null ? absent : ((Number) v).longValue();
  }

  /** A bigint column, {@code null} when absent. */
  public Long nullableLong(String name) {
    Object v = value(name);
    return v == null ? null : ((Number) v).longValue();
  }

  public boolean bool(String name) {
    Object v = value(name);
    if (v == null) {
      throw new IllegalStateException("column " + name + " is null");
    }
    return (Boolean) v;
  }

  /** A timestamp column as Spark returns it ({@code null} when absent). */
  public Timestamp timestamp(String name) {
    Object v = value(name);
    return v instanceof Instant i ? Timestamp.from(i) : (Timestamp) v;
  }

  public Optional<Instant> instant(String name) {
    return Optional.ofNullable(timestamp(name)).map(Timestamp::toInstant);
  }

  /** An array column as a Java list (empty when null). */
  @SuppressWarnings("unchecked")
  public <T> List<T> list(String name) {
    Object v = value(name);
    if (v == null) {
      return List.of();
    }
    if (v instanceof List<?> l) {
      return Collections.unmodifiableList(new ArrayList<>((List<T>) l));
    }
    return Collections.unmodifiableList(
        new ArrayList<>(CollectionConverters.asJava((scala.collection.Seq<T>) v)));
  }

  /** A map column as a Java map (empty when null). */
  @SuppressWarnings("unchecked")
  public <K, V> Map<K, V> map(String name) {
    Object v = value(name);
    if (v == null) {
      return Map.of();
    }
    if (v instanceof Map<?, ?> m) {
      return Collections.unmodifiableMap(new HashMap<>((Map<K, V>) m));
    }
    return Collections.unmodifiableMap(
        new HashMap<>(CollectionConverters.asJava((scala.collection.Map<K, V>) v)));
  }
}
