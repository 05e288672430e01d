package io.weaver.load.records;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalogue.NamedRow;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.expectations.RowExpectations;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import io.weaver.load.spec.LoadTrace;
import io.weaver.load.spec.ManagedValues;
import io.weaver.session.Ahead;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;

/**
 * Writes a load's quarantined rows into {@code _.LoadQuarantine} (docs/table-contract.md,
 * "Expectations"), before the Table's own commit and in one commit of its own; and, for a load that
 * writes, its counts per expectation into {@code _.LoadExpectation} while the load goes on.
 *
 * <p>Exactly once: the write replaces every row of this Table under this load id, so a retry under
 * the same id writes the same rows once; and it also removes the rows of earlier loads of the Table
 * that did not end as {@code succeeded} or {@code recovered} in {@code _.LoadHistory} — a load that
 * failed after this write (whose rows {@link #withdraw} removes at once when it can) or stopped
 * before recording itself. A load that committed the Table before it stopped is recorded by the
 * next load's recovery before that load gets here, so its rows stay.
 */
public final class QuarantineRecords {
  private final Catalogue catalogue;
  private final String tableId;
  private final String loadId;

  /** Whether {@link #write} committed rows this load may have to withdraw. */
  private boolean written;

  /**
   * The load's {@code _.LoadExpectation} rows, written while the load goes on ({@link
   * #countsAhead}).
   */
  private CompletableFuture<Void> counts;

  QuarantineRecords(Catalogue catalogue, String tableId, String loadId) {
    this.catalogue = catalogue;
    this.tableId = tableId;
    this.loadId = loadId;
  }

  /** {@code violating} (business columns) as {@code expectations, key_json, row_json}. */
  public static Dataset<Row> rows(
      LoadSpec spec, RowExpectations expectations, Dataset<Row> violating) {
    Column row = ManagedValues.jsonWithNulls(Arrays.asList(spec.businessSchema().fieldNames()));
    Column key =
        spec.keyed() ? ManagedValues.json(spec.primaryKey()) : lit(null).cast(DataTypes.StringType);
    return violating.select(
        expectations.quarantineNames().as("expectations"), key.as("key_json"), row.as("row_json"));
  }

  /** Writes {@code rows} (from {@link #rows}) as this load's quarantine, in one commit. */
  public void write(Dataset<Row> rows) {
    List<String> replaced = new ArrayList<>(unrecordedLoads());
    replaced.add(loadId);
    catalogue.replaceLoads(
        CatalogueTable.LOAD_QUARANTINE,
        tableId,
        replaced,
        rows.select(
            lit(loadId).as("load_id"),
            lit(tableId).as("table_id"),
            col("expectations"),
            col("key_json"),
            col("row_json")));
    written = true;
    LoadTrace.mark("quarantine written");
  }

  /**
   * Removes this load's rows after it failed without committing the Table (best effort: rows left
   * by a failure here are removed by the Table's next quarantine write).
   */
  public void withdraw() {
    if (!written) {
      return;
    }
    try {
      catalogue.deleteLoads(CatalogueTable.LOAD_QUARANTINE, tableId, List.of(loadId));
      written = false;
    } catch (RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(QuarantineRecords.class)
          .warn(
              "{}: the quarantined rows of failed load {} stay in _.LoadQuarantine until the"
                  + " Table's next quarantine",
              tableId,
              loadId,
              e);
    }
  }

  /**
   * Starts writing the load's counts per expectation to {@code _.LoadExpectation} on a thread of
   * its own, as soon as they are decided, so the commit does not wait for the load's write (a load
   * that writes something); {@link #countsWritten} joins it before the history row.
   */
  public void countsAhead(SparkSession spark, List<ExpectationCount> expectations) {
    if (expectations.isEmpty()) {
      return;
    }
    counts =
        Ahead.start(
            spark,
            "expectation counts",
            () -> {
              new LoadBookkeeping(catalogue).expectations(tableId, loadId, expectations);
              return null;
            });
  }

  /**
   * Whether {@link #countsAhead} wrote the counts; false when it was not started or failed (the
   * recorder then writes them itself, replacing any partial rows).
   */
  public boolean countsWritten() {
    if (counts == null) {
      return false;
    }
    try {
      Ahead.join(counts);
      return true;
    } catch (RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(QuarantineRecords.class)
          .warn("{}: the expectation counts of load {} are written again", tableId, loadId, e);
      return false;
    }
  }

  /** Load ids of this Table's quarantine rows whose load did not end applied (a few at most). */
  private List<String> unrecordedLoads() {
    Dataset<Row> quarantined =
        catalogue
            .readFor(CatalogueTable.LOAD_QUARANTINE, "table_id", tableId)
            .select("load_id")
            .distinct();
    Dataset<Row> recorded =
        catalogue
            .readFor(CatalogueTable.LOAD_HISTORY, "table_id", tableId)
            .where(col("status").isin(LoadStatus.SUCCEEDED.text(), LoadStatus.RECOVERED.text()))
            .select("load_id");
    return quarantined.except(recorded).collectAsList().stream()
        .map(r -> NamedRow.of(r).string("load_id"))
        .toList();
  }
}
