package io.weaver.catalogue;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;

/**
 * One column of a catalogue table: its name, Spark type, whether it may be null and whether it was
 * appended to its table after the table was first published ({@link CatalogueTable}, "Evolution"):
 * an existing item gains an appended column when Build or a load next runs.
 */
public record CatalogueField(String name, DataType type, boolean nullable, boolean appended) {

  public StructField structField() {
    return new StructField(name, type, nullable, Metadata.empty());
  }

  static CatalogueField required(String name, DataType type) {
    return new CatalogueField(name, type, false, false);
  }

  static CatalogueField optional(String name, DataType type) {
    return new CatalogueField(name, type, true, false);
  }

  /**
   * A column appended to a published table: always optional, and only after every other column
   * (checked by {@link CatalogueTable}).
   */
  static CatalogueField appended(String name, DataType type) {
    return new CatalogueField(name, type, true, true);
  }

  static final DataType STRING = DataTypes.StringType;
  static final DataType BOOLEAN = DataTypes.BooleanType;
  static final DataType INT = DataTypes.IntegerType;
  static final DataType BIGINT = DataTypes.LongType;
  static final DataType TIMESTAMP = DataTypes.TimestampType;
  static final DataType STRINGS = DataTypes.createArrayType(DataTypes.StringType, true);
  static final DataType STRING_MAP =
      DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType, true);
}
