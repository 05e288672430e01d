package io.weaver.load.records;

import io.weaver.load.spec.LoadSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * One load of one Table.
 *
 * @param spec the Table
 * @param staging the rows the body returned; {@code null} means "no work" (incremental None)
 * @param deleteKeys primary keys to delete (incremental Tables only)
 * @param loadTimestamp the load's instant; truncated to microseconds
 * @param loadId the load's id, for messages and commit metadata
 * @param loadSequence the idempotent transaction version ({@code txnAppId = "weaver:" + table})
 * @param waiveGates skip the stability gates for this load
 * @param commitMetadata JSON text stored as the commit's {@code userMetadata}
 * @param expectUnchanged the Table's previous load changed nothing, so this one first checks
 *     whether anything changed at all (a cheaper pass that ends the load when nothing did; see
 *     {@code SameRows})
 * @param planOnly a plan (docs/plan.md): the load runs to its gates and stops, writing nothing
 * @param quarantine where the load's quarantined rows go ({@code _.LoadQuarantine}); empty when the
 *     caller keeps no catalogue (they are then only counted)
 */
public record LoadRequest(
    LoadSpec spec,
    Dataset<Row> staging,
    Optional<Dataset<Row>> deleteKeys,
    Instant loadTimestamp,
    String loadId,
    long loadSequence,
    boolean waiveGates,
    String commitMetadata,
    boolean expectUnchanged,
    boolean planOnly,
    Optional<QuarantineRecords> quarantine) {

  /** A load that writes, with a guess about its changes. */
  public LoadRequest(
      LoadSpec spec,
      Dataset<Row> staging,
      Optional<Dataset<Row>> deleteKeys,
      Instant loadTimestamp,
      String loadId,
      long loadSequence,
      boolean waiveGates,
      String commitMetadata,
      boolean expectUnchanged) {
    this(
        spec,
        staging,
        deleteKeys,
        loadTimestamp,
        loadId,
        loadSequence,
        waiveGates,
        commitMetadata,
        expectUnchanged,
        false,
        Optional.empty());
  }

  /** A load without a guess about its changes (the full diff runs directly). */
  public LoadRequest(
      LoadSpec spec,
      Dataset<Row> staging,
      Optional<Dataset<Row>> deleteKeys,
      Instant loadTimestamp,
      String loadId,
      long loadSequence,
      boolean waiveGates,
      String commitMetadata) {
    this(
        spec,
        staging,
        deleteKeys,
        loadTimestamp,
        loadId,
        loadSequence,
        waiveGates,
        commitMetadata,
        false);
  }

  public LoadRequest {
    if (spec == null) {
      throw new IllegalArgumentException("spec is required");
    }
    deleteKeys = deleteKeys == null ? Optional.empty() : deleteKeys;
    if (loadTimestamp == null) {
      throw new IllegalArgumentException(spec.tableName() + ": loadTimestamp is required");
    }
    loadTimestamp = loadTimestamp.truncatedTo(ChronoUnit.MICROS);
    commitMetadata = commitMetadata == null ? "" : commitMetadata;
    quarantine = quarantine == null ? Optional.empty() : quarantine;
  }

  /** This load as a plan: the same passes up to the gates, then nothing written. */
  public LoadRequest asPlan() {
    return new LoadRequest(
        spec,
        staging,
        deleteKeys,
        loadTimestamp,
        loadId,
        loadSequence,
        waiveGates,
        commitMetadata,
        expectUnchanged,
        true,
        Optional.empty());
  }

  /** This load, its quarantined rows written by {@code records}. */
  public LoadRequest withQuarantine(QuarantineRecords records) {
    return new LoadRequest(
        spec,
        staging,
        deleteKeys,
        loadTimestamp,
        loadId,
        loadSequence,
        waiveGates,
        commitMetadata,
        expectUnchanged,
        planOnly,
        Optional.of(records));
  }

  /** The idempotent-transaction application id of this Table's loads. */
  public String txnAppId() {
    return txnAppId(spec.tableName());
  }

  /** The idempotent-transaction application id of the loads of the Table named {@code table}. */
  public static String txnAppId(String table) {
    return "weaver:" + table;
  }
}
