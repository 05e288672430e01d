package io.weaver.install;

import org.apache.spark.sql.types.DataType;

/** One business column as it is (or will be) built: name, engine type, nullability. */
public record BuiltColumn(String name, DataType type, boolean nullable) {

  /** The type as Spark SQL text, e.g. {@code decimal(9,3)}. */
  public String typeText() {
    return type.sql().toLowerCase(java.util.Locale.ROOT);
  }
}
