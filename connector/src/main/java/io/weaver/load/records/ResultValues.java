package io.weaver.load.records;

import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalogue.LoadResultField;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.spec.GateVerdict;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * The values of a load's result fields ({@link LoadResultField}) as JSON values and as Spark row
 * values: the one conversion behind the JSON of {@code weaver load} and {@code weaver plan}, the
 * rows of {@code LOAD WEAVER} and {@code PLAN WEAVER} and the rows of {@code _.LoadHistory}. A
 * value is handed over as its record ({@link GateVerdict}, {@link ExpectationCount}, a rejected
 * row's map); JSON shows a record as its map, a row as a struct filled by field name.
 */
public final class ResultValues {
  private ResultValues() {}

  /** The fields of {@code view} as an ordered map of JSON values, by column name. */
  public static Map<String, Object> map(
      LoadResultField.View view, Function<LoadResultField, Object> value) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (LoadResultField f : LoadResultField.of(view)) {
      m.put(f.column(), json(value.apply(f)));
    }
    return m;
  }

  /** The fields of {@code view} as a row of {@link LoadResultField#schema}, placed by name. */
  public static Row row(LoadResultField.View view, Function<LoadResultField, Object> value) {
    CatalogueRowBuilder row = CatalogueRowBuilder.of(view.name(), LoadResultField.schema(view));
    for (LoadResultField f : LoadResultField.of(view)) {
      row.set(f.column(), rowValue(f.type(), value.apply(f)));
    }
    return row.build();
  }

  /** A value as JSON shows it: a gate or an expectation count as its map, lists element-wise. */
  static Object json(Object value) {
    if (value instanceof List<?> list) {
      return list.stream().map(ResultValues::json).toList();
    }
    if (value instanceof GateVerdict g) {
      return g.toMap();
    }
    if (value instanceof ExpectationCount e) {
      return e.toMap();
    }
    return value;
  }

  /**
   * A value as a Spark row of {@code type} holds it: a list of records as structs filled by field
   * name, an {@link Instant} as a {@link Timestamp}.
   */
  public static Object rowValue(DataType type, Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Instant instant) {
      return Timestamp.from(instant);
    }
    if (type instanceof ArrayType array
        && array.elementType() instanceof StructType struct
        && value instanceof List<?> list) {
      return list.stream().map(e -> struct(struct, fields(e))).toList();
    }
    return value;
  }

  private static Map<?, ?> fields(Object record) {
    if (record instanceof GateVerdict g) {
      return g.values();
    }
    if (record instanceof ExpectationCount e) {
      return e.toMap();
    }
    if (record instanceof Map<?, ?> m) {
      return m;
    }
    throw new IllegalArgumentException("not a struct of a load's result: " + record);
  }

  private static Row struct(StructType struct, Map<?, ?> fields) {
    CatalogueRowBuilder row = CatalogueRowBuilder.of(struct.simpleString(), struct);
    for (String name : struct.fieldNames()) {
      row.set(name, fields.get(name));
    }
    return row.build();
  }
}
