package io.weaver.load;

import io.delta.tables.DeltaTable;
import io.delta.tables.DeltaTableBuilder;
import io.weaver.metadata.ManagedColumns;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Weaver-shaped Delta table on disk ({@code Logistics.Parcel.Current}: {@code id int} key, {@code
 * name string}, {@code weight int}) and helpers to load it and read it back.
 */
final class TestTable {
  static final String NAME = "Logistics.Parcel.Current";
  static final StructType SCHEMA =
      new StructType()
          .add("id", DataTypes.IntegerType, false)
          .add("name", DataTypes.StringType)
          .add("weight", DataTypes.IntegerType);
  static final Instant T1 = Instant.parse("2024-01-01T10:00:00.123456Z");
  static final Instant T2 = Instant.parse("2024-01-02T10:00:00.654321Z");
  static final Instant T3 = Instant.parse("2024-01-03T10:00:00Z");
  static final Instant LIVE = Instant.parse("9999-12-31T00:00:00Z");

  final SparkSession spark = SparkTestSession.get();
  final LoadSpec spec;
  private long sequence;

  TestTable(LoadSpec spec) {
    this.spec = spec;
    create(spec);
  }

  static LoadSpec keyedSpec(Path dir, boolean incremental) {
    return new LoadSpec(
        NAME,
        dir.resolve("Parcel").toString(),
        SCHEMA,
        List.of("id"),
        List.of(),
        List.of(),
        List.of("name", "weight"),
        Optional.empty(),
        incremental,
        100,
        100,
        0);
  }

  private void create(LoadSpec spec) {
    DeltaTableBuilder builder =
        DeltaTable.create(spark)
            .location(spec.targetPath())
            .property("delta.enableDeletionVectors", "true");
    spec.identityColumn()
        .ifPresent(
            sk ->
                builder.addColumn(
                    DeltaTable.columnBuilder(spark, sk)
                        .dataType("BIGINT")
                        .generatedAlwaysAsIdentity()
                        .nullable(false)
                        .build()));
    for (StructField field : spec.businessSchema().fields()) {
      boolean notNull =
          spec.primaryKey().contains(field.name()) || spec.notNull().contains(field.name());
      builder.addColumn(
          DeltaTable.columnBuilder(spark, field.name())
              .dataType(field.dataType())
              .nullable(!notNull)
              .build());
    }
    for (String time :
        List.of(
            ManagedColumns.INSERT_TIME, ManagedColumns.UPDATE_TIME, ManagedColumns.DELETE_TIME)) {
      builder.addColumn(
          DeltaTable.columnBuilder(spark, time)
              .dataType(DataTypes.TimestampType)
              .nullable(false)
              .build());
    }
    if (spec.keyed()) {
      builder.addColumn(
          DeltaTable.columnBuilder(spark, ManagedColumns.SIGNATURE)
              .dataType(DataTypes.StringType)
              .nullable(false)
              .build());
    }
    builder.execute();
  }

  Dataset<Row> rows(Object[]... values) {
    return rows(spec.businessSchema(), values);
  }

  Dataset<Row> rows(StructType schema, Object[]... values) {
    List<Row> rows = new ArrayList<>();
    for (Object[] v : values) {
      rows.add(RowFactory.create(v));
    }
    return spark.createDataFrame(rows, schema);
  }

  static Object[] row(Object... values) {
    return values;
  }

  Dataset<Row> keys(Integer... ids) {
    StructType schema = new StructType().add("id", DataTypes.IntegerType);
    List<Row> rows = Arrays.stream(ids).map(i -> RowFactory.create(i)).toList();
    return spark.createDataFrame(rows, schema);
  }

  LoadRequest request(Dataset<Row> staging, Instant ts) {
    return new LoadRequest(
        spec,
        staging,
        Optional.empty(),
        ts,
        "load-" + (sequence + 1),
        ++sequence,
        false,
        // A real receipt: the portable path finds the last applied sequence through it.
        new CommitReceipt("load-" + sequence, sequence, ts, Optional.empty()).toJson());
  }

  LoadOutcome load(Dataset<Row> staging, Instant ts) {
    return LoadEngine.apply(spark, request(staging, ts));
  }

  LoadOutcome loadWithDeletes(Dataset<Row> staging, Dataset<Row> deleteKeys, Instant ts) {
    LoadRequest base = request(staging, ts);
    return LoadEngine.apply(
        spark,
        new LoadRequest(
            spec,
            staging,
            Optional.of(deleteKeys),
            ts,
            base.loadId(),
            base.loadSequence(),
            false,
            base.commitMetadata()));
  }

  /** The table's rows by primary key (first business column), every column. */
  Map<Integer, Row> byId() {
    Map<Integer, Row> rows = new TreeMap<>();
    Dataset<Row> table = spark.read().format("delta").load(spec.targetPath());
    for (Row row : table.collectAsList()) {
      rows.put(row.getInt(row.fieldIndex("id")), row);
    }
    return rows;
  }

  long version() {
    return DeltaTable.forPath(spark, spec.targetPath()).history(1).head().getLong(0);
  }

  Row lastCommit() {
    return DeltaTable.forPath(spark, spec.targetPath()).history(1).head();
  }

  long historySize() {
    return DeltaTable.forPath(spark, spec.targetPath()).history().count();
  }

  /**
   * Sets the write path ({@code spark.weaver.load.writer}) of loads in the shared test session;
   * {@code null} unsets it.
   */
  static void writer(String writer) {
    SparkSession session = SparkTestSession.get();
    if (writer == null) {
      session.conf().unset(io.weaver.session.WeaverConf.LOAD_WRITER);
    } else {
      session.conf().set(io.weaver.session.WeaverConf.LOAD_WRITER, writer);
    }
  }

  static Instant time(Row row, String column) {
    Object value = row.get(row.fieldIndex(column));
    return value instanceof java.sql.Timestamp t ? t.toInstant() : (Instant) value;
  }

  static String text(Row row, String column) {
    return row.getString(row.fieldIndex(column));
  }
}
