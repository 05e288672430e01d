package io.weaver.site;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalogue.NamedRow;
import io.weaver.lakehouse.LakehouseLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.functions;

/**
 * What the catalogue of one item says about its built Tables: when each was built, its columns as
 * built (managed ones included) and its last loads with their counts per expectation. Catalogue
 * rows are metadata, a few per Table or load, so they are collected; loads are cut to the last
 * {@code loadsPerTable} per Table in Spark.
 */
final class CatalogueFacts {
  /** Build time and columns (ordinal order) of each built Table, by Table ID. */
  final Map<String, Instant> builtAt = new HashMap<>();

  final Map<String, List<SiteModel.Column>> columns = new HashMap<>();

  /** The last loads of each Table, oldest first, by Table ID. */
  final Map<String, List<SiteModel.Load>> loads = new HashMap<>();

  private CatalogueFacts() {}

  static CatalogueFacts read(
      SparkSession spark, LakehouseLayout layout, String item, int loadsPerTable) {
    CatalogueFacts facts = new CatalogueFacts();
    Catalogue catalogue = new Catalogue(spark, layout, item);
    if (catalogue.exists(CatalogueTable.TABLE_DICTIONARY)) {
      for (Row r :
          catalogue
              .read(CatalogueTable.TABLE_DICTIONARY)
              .select("table_id", "built_at")
              .collectAsList()) {
        NamedRow row = NamedRow.of(r);
        facts.builtAt.put(row.string("table_id"), row.instant("built_at").orElse(null));
      }
    }
    if (catalogue.exists(CatalogueTable.COLUMN_DICTIONARY)) {
      for (Row r :
          catalogue
              .read(CatalogueTable.COLUMN_DICTIONARY)
              .select(
                  "table_id",
                  "column_name",
                  "data_type",
                  "nullable",
                  "managed_role",
                  "note",
                  "note_reference")
              .orderBy("table_id", "ordinal")
              .collectAsList()) {
        NamedRow row = NamedRow.of(r);
        facts
            .columns
            .computeIfAbsent(row.string("table_id"), k -> new ArrayList<>())
            .add(
                new SiteModel.Column(
                    row.string("column_name"),
                    row.string("data_type"),
                    row.bool("nullable"),
                    row.string("managed_role"),
                    row.string("note"),
                    row.string("note_reference")));
      }
    }
    if (catalogue.exists(CatalogueTable.LOAD_HISTORY)) {
      var recent =
          functions
              .row_number()
              .over(Window.partitionBy("table_id").orderBy(functions.col("load_id").desc()));
      for (Row r :
          catalogue
              .read(CatalogueTable.LOAD_HISTORY)
              .withColumn("recent", recent)
              .where(functions.col("recent").leq(loadsPerTable))
              .select(
                  "table_id",
                  "load_id",
                  "status",
                  "load_timestamp",
                  "started_at",
                  "rows_inserted",
                  "rows_updated",
                  "rows_deleted",
                  "rows_rejected",
                  "target_live_rows_after",
                  "message")
              .orderBy("table_id", "load_id")
              .collectAsList()) {
        NamedRow row = NamedRow.of(r);
        // A load that never reached its load timestamp is placed at its start.
        Instant at = row.instant("load_timestamp").or(() -> row.instant("started_at")).orElse(null);
        facts
            .loads
            .computeIfAbsent(row.string("table_id"), k -> new ArrayList<>())
            .add(
                new SiteModel.Load(
                    row.string("load_id"),
                    row.string("status"),
                    at,
                    row.longOr("rows_inserted", 0),
                    row.longOr("rows_updated", 0),
                    row.longOr("rows_deleted", 0),
                    row.longOr("rows_rejected", 0),
                    row.nullableLong("target_live_rows_after"),
                    row.string("message"),
                    new HashMap<>()));
      }
    }
    if (catalogue.exists(CatalogueTable.LOAD_EXPECTATION)) {
      // The counts of the loads shown: their ids are few, the table's rows a few per load.
      Map<String, SiteModel.Load> shown = new HashMap<>();
      facts.loads.values().forEach(list -> list.forEach(l -> shown.put(l.loadId(), l)));
      for (Row r :
          catalogue
              .read(CatalogueTable.LOAD_EXPECTATION)
              .where(functions.col("load_id").isin(shown.keySet().toArray()))
              .select("load_id", "expectation", "rows_violating")
              .collectAsList()) {
        NamedRow row = NamedRow.of(r);
        SiteModel.Load load = shown.get(row.string("load_id"));
        load.violations().put(row.string("expectation"), row.longOr("rows_violating", 0));
      }
    }
    return facts;
  }
}
