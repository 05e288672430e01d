package io.weaver.catalyst.delta;

import static org.apache.spark.sql.functions.col;

import io.delta.tables.DeltaTable;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * {@link DeltaLogs.TableLog} through Delta's public API only: {@code DeltaTable.history} for the
 * version and the commits' {@code userMetadata}, {@code DeltaTable.detail} for the table id. Each
 * is a small driver-side read of the log (no scan of data files).
 */
final class PublicDeltaLog implements DeltaLogs.TableLog {
  private final long version;
  private final String tableId;

  private PublicDeltaLog(long version, String tableId) {
    this.version = version;
    this.tableId = tableId;
  }

  static Optional<DeltaLogs.TableLog> at(SparkSession spark, String path) {
    if (!DeltaTable.isDeltaTable(spark, path)) {
      return Optional.empty();
    }
    DeltaTable table = DeltaTable.forPath(spark, path);
    // Delta's history and detail are read by column name (DESCRIBE HISTORY, DESCRIBE DETAIL).
    long version = table.history(1).select("version").first().<Long>getAs("version");
    String id = table.detail().select("id").first().<String>getAs("id");
    return Optional.of(new PublicDeltaLog(version, id));
  }

  static Optional<StructType> schema(SparkSession spark, String path) {
    return DeltaTable.isDeltaTable(spark, path)
        ? Optional.of(DeltaTable.forPath(spark, path).toDF().schema())
        : Optional.empty();
  }

  @Override
  public long version() {
    return version;
  }

  @Override
  public String tableId() {
    return tableId;
  }

  /** Delta's public API has no read of transaction ids: the caller reads its receipts instead. */
  @Override
  public OptionalLong txnVersion(String appId) {
    return OptionalLong.empty();
  }

  @Override
  public void prepareState() {
    // Nothing to warm through the public API; the write lists the files itself.
  }

  static Optional<String> userMetadataAt(SparkSession spark, String path, long version) {
    try {
      List<Row> rows =
          DeltaTable.forPath(spark, path)
              .history()
              .filter(col("version").equalTo(version))
              .select("userMetadata")
              .collectAsList();
      return rows.isEmpty()
          ? Optional.empty()
          : Optional.of(Objects.requireNonNullElse(rows.get(0).<String>getAs("userMetadata"), ""));
    } catch (RuntimeException unreadable) {
      return Optional.empty();
    }
  }

  static List<String> userMetadata(SparkSession spark, String path) {
    return DeltaTable.forPath(spark, path)
        .history()
        .filter(col("userMetadata").isNotNull())
        .orderBy(col("version").desc())
        .select("userMetadata")
        .collectAsList()
        .stream()
        .map(r -> r.<String>getAs("userMetadata"))
        .toList();
  }
}
