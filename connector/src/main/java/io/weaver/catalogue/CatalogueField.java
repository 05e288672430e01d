package io.weaver.catalogue;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;

/** One column of a catalogue table: its name, Spark type and whether it may be null. */
public record CatalogueField(String name, DataType type, boolean nullable) {

  public StructField structField() {
    return new StructField(name, type, nullable, Metadata.empty());
  }

  static CatalogueField required(String name, DataType type) {
    return new CatalogueField(name, type, false);
  }

  static CatalogueField optional(String name, DataType type) {
    return new CatalogueField(name, type, true);
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
