package io.weaver.catalyst.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/** {@link DeltaLogs.TableLog} over open-source Delta's {@code DeltaLog} snapshot (no Spark job). */
final class InternalDeltaLog implements DeltaLogs.TableLog {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Snapshot snapshot;

  private InternalDeltaLog(Snapshot snapshot) {
    this.snapshot = snapshot;
  }

  static Optional<DeltaLogs.TableLog> at(SparkSession spark, String path) {
    Snapshot snapshot =
        DeltaLog.forTable(spark, path).update(false, Option.empty(), Option.empty());
    return snapshot.version() < 0 ? Optional.empty() : Optional.of(new InternalDeltaLog(snapshot));
  }

  static Optional<StructType> schema(SparkSession spark, String path) {
    Snapshot snapshot =
        DeltaLog.forTable(spark, path).update(false, Option.empty(), Option.empty());
    return snapshot.version() < 0 ? Optional.empty() : Optional.of(snapshot.schema());
  }

  @Override
  public long version() {
    return snapshot.version();
  }

  @Override
  public String tableId() {
    return snapshot.metadata().id();
  }

  @Override
  public OptionalLong txnVersion(String appId) {
    Option<Object> version = snapshot.transactions().get(appId);
    return OptionalLong.of(version.isDefined() ? ((Number) version.get()).longValue() : -1L);
  }

  @Override
  public void prepareState() {
    snapshot.transactions();
  }

  /** Reads the commit's file in {@code _delta_log} (no Spark job, no history listing). */
  static Optional<String> userMetadataAt(SparkSession spark, String path, long version) {
    Path file =
        new Path(new Path(path, "_delta_log"), String.format(Locale.ROOT, "%020d.json", version));
    try {
      FileSystem fs = file.getFileSystem(spark.sessionState().newHadoopConf());
      try (BufferedReader reader =
          new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
        String line;
        while ((line = reader.readLine()) != null) {
          if (line.startsWith("{\"commitInfo\"")) {
            JsonNode metadata = JSON.readTree(line).path("commitInfo").path("userMetadata");
            return Optional.of(metadata.isTextual() ? metadata.asText() : "");
          }
        }
        return Optional.of("");
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
