package io.weaver.site;

import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.lakehouse.LakehouseLayout;
import java.sql.Timestamp;
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
 * built (managed ones included) and its last loads. Catalogue rows are metadata, a few per Table or
 * load, so they are collected; loads are cut to the last {@code loadsPerTable} per Table in Spark.
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
        facts.builtAt.put(r.getString(0), instant(r.getTimestamp(1)));
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
        facts
            .columns
            .computeIfAbsent(r.getString(0), k -> new ArrayList<>())
            .add(
                new SiteModel.Column(
                    r.getString(1),
                    r.getString(2),
                    r.getBoolean(3),
                    r.getString(4),
                    r.getString(5),
                    r.getString(6)));
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
        Timestamp at = r.isNullAt(3) ? r.getTimestamp(4) : r.getTimestamp(3);
        facts
            .loads
            .computeIfAbsent(r.getString(0), k -> new ArrayList<>())
            .add(
                new SiteModel.Load(
                    r.getString(1),
                    r.getString(2),
                    instant(at),
                    longOr0(r, 5),
                    longOr0(r, 6),
                    longOr0(r, 7),
                    longOr0(r, 8),
                    r.isNullAt(9) ? null : r.getLong(9),
                    r.getString(10)));
      }
    }
    return facts;
  }

  private static long longOr0(Row r, int i) {
    return r.isNullAt(i) ? 0 : r.getLong(i);
  }

  private static Instant instant(Timestamp t) {
    return t == null ? null : t.toInstant();
  }
}
