package io.weaver.catalyst.signature;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Adapts Spark's internal values ({@link UTF8String}, {@link Decimal}, {@link ArrayData}, {@link
 * MapData}, {@link InternalRow}) to {@link SignatureEncoding}. Public because generated code calls
 * these methods.
 */
public final class CatalystEncoding {

  private static final Comparator<byte[][]> ENTRY_ORDER =
      (a, b) -> {
        int byKey = Arrays.compareUnsigned(a[0], b[0]);
        return byKey != 0 ? byKey : Arrays.compareUnsigned(a[1], b[1]);
      };

  private CatalystEncoding() {}

  /** String value: its UTF-8 bytes, read in place when they live on the heap. */
  public static void putUtf8String(MessageDigest digest, UTF8String value) {
    Object base = value.getBaseObject();
    int length = value.numBytes();
    if (base instanceof byte[] bytes) {
      long offset = value.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET;
      SignatureEncoding.putBytes(digest, bytes, (int) offset, length);
    } else {
      SignatureEncoding.putBytes(digest, value.getBytes(), 0, length);
    }
  }

  /** Decimal value at the column's declared scale. */
  public static void putDecimal(MessageDigest digest, Decimal value, int scale) {
    if (value.scale() == scale && value.precision() <= Decimal.MAX_LONG_DIGITS()) {
      SignatureEncoding.putDecimal(digest, value.toUnscaledLong(), scale);
    } else {
      SignatureEncoding.putDecimal(digest, value.toJavaBigDecimal(), scale);
    }
  }

  /**
   * The writer for non-null values of {@code type}.
   *
   * @throws IllegalArgumentException naming the type when the signature does not support it
   */
  public static ValueWriter writerFor(DataType type) {
    if (type instanceof StringType) {
      return (d, v) -> putUtf8String(d, (UTF8String) v);
    } else if (type instanceof ByteType) {
      return (d, v) -> SignatureEncoding.putLong(d, (Byte) v);
    } else if (type instanceof ShortType) {
      return (d, v) -> SignatureEncoding.putLong(d, (Short) v);
    } else if (type instanceof IntegerType) {
      return (d, v) -> SignatureEncoding.putLong(d, (Integer) v);
    } else if (type instanceof LongType) {
      return (d, v) -> SignatureEncoding.putLong(d, (Long) v);
    } else if (type instanceof DecimalType decimal) {
      int scale = decimal.scale();
      return (d, v) -> putDecimal(d, (Decimal) v, scale);
    } else if (type instanceof FloatType) {
      return (d, v) -> SignatureEncoding.putFloat(d, (Float) v);
    } else if (type instanceof DoubleType) {
      return (d, v) -> SignatureEncoding.putDouble(d, (Double) v);
    } else if (type instanceof BooleanType) {
      return (d, v) -> SignatureEncoding.putBoolean(d, (Boolean) v);
    } else if (type instanceof DateType) {
      return (d, v) -> SignatureEncoding.putDate(d, (Integer) v);
    } else if (type instanceof TimestampType || type instanceof TimestampNTZType) {
      return (d, v) -> SignatureEncoding.putTimestampMicros(d, (Long) v);
    } else if (type instanceof BinaryType) {
      return (d, v) -> SignatureEncoding.putBinary(d, (byte[]) v);
    } else if (type instanceof ArrayType array) {
      return arrayWriter(array.elementType());
    } else if (type instanceof MapType map) {
      return mapWriter(map.keyType(), map.valueType());
    } else if (type instanceof StructType struct) {
      return structWriter(struct);
    }
    throw new IllegalArgumentException(
        "Row signature does not support columns of type "
            + type.sql()
            + "; supported: string, tinyint, smallint, int, bigint, decimal, float, double,"
            + " boolean, date, timestamp, timestamp_ntz, binary, and arrays, maps and structs"
            + " of these.");
  }

  private static ValueWriter arrayWriter(DataType elementType) {
    ValueWriter element = writerFor(elementType);
    return (d, v) -> {
      ArrayData array = (ArrayData) v;
      int n = array.numElements();
      SignatureEncoding.beginArray(d, n);
      for (int i = 0; i < n; i++) {
        putItem(d, array, i, elementType, element);
      }
    };
  }

  private static ValueWriter mapWriter(DataType keyType, DataType valueType) {
    ValueWriter key = writerFor(keyType);
    ValueWriter value = writerFor(valueType);
    return (d, v) -> {
      MapData map = (MapData) v;
      int n = map.numElements();
      ArrayData keys = map.keyArray();
      ArrayData values = map.valueArray();
      ByteCapture capture = new ByteCapture();
      byte[][][] entries = new byte[n][][];
      for (int i = 0; i < n; i++) {
        putItem(capture, keys, i, keyType, key);
        byte[] keyBytes = capture.take();
        putItem(capture, values, i, valueType, value);
        entries[i] = new byte[][] {keyBytes, capture.take()};
      }
      Arrays.sort(entries, ENTRY_ORDER);
      SignatureEncoding.beginMap(d, n);
      for (byte[][] entry : entries) {
        d.update(entry[0]);
        d.update(entry[1]);
      }
    };
  }

  private static ValueWriter structWriter(StructType struct) {
    StructField[] fields = struct.fields();
    DataType[] types = new DataType[fields.length];
    ValueWriter[] writers = new ValueWriter[fields.length];
    for (int i = 0; i < fields.length; i++) {
      types[i] = fields[i].dataType();
      writers[i] = writerFor(types[i]);
    }
    return (d, v) -> {
      InternalRow row = (InternalRow) v;
      SignatureEncoding.beginStruct(d, types.length);
      for (int i = 0; i < types.length; i++) {
        if (row.isNullAt(i)) {
          SignatureEncoding.putNull(d);
        } else {
          writers[i].write(d, row.get(i, types[i]));
        }
      }
    };
  }

  private static void putItem(
      MessageDigest digest, ArrayData array, int i, DataType type, ValueWriter writer) {
    if (array.isNullAt(i)) {
      SignatureEncoding.putNull(digest);
    } else {
      writer.write(digest, array.get(i, type));
    }
  }
}
