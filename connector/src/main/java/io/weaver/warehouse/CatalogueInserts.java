package io.weaver.warehouse;

import io.weaver.catalogue.CatalogueTable;
import io.weaver.json.Json;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Catalogue rows (the same {@link Row}s Build writes to a Lakehouse's Delta catalogue) as T-SQL:
 * per Table, a {@code DELETE} of its old rows and an {@code INSERT … VALUES} of the new ones.
 * Values are literals rendered here — text as {@code N'…'}, lists and maps as JSON text, booleans
 * as {@code 1}/{@code 0}, instants as UTC {@code datetime2(6)} — so no value is ever spliced in
 * unquoted. These are a few rows of metadata per Table, never table data.
 */
final class CatalogueInserts {
  /** SQL Server accepts at most 1000 rows in one {@code VALUES} list. */
  private static final int MAX_ROWS = 1000;

  private static final DateTimeFormatter INSTANT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

  private CatalogueInserts() {}

  /** {@code DELETE} the rows where {@code keyColumn = keyValue}, then insert {@code rows}. */
  static List<String> replace(
      CatalogueTable table, String keyColumn, String keyValue, List<Row> rows) {
    List<String> statements = new ArrayList<>();
    statements.add(
        "DELETE FROM "
            + CatalogueDdl.name(table)
            + " WHERE "
            + TsqlNames.quote(keyColumn)
            + " = "
            + TsqlNames.literal(keyValue)
            + ";");
    statements.addAll(insert(table, rows));
    return statements;
  }

  static List<String> insert(CatalogueTable table, List<Row> rows) {
    StructType schema = table.schema();
    List<String> columns = new ArrayList<>();
    for (StructField f : schema.fields()) {
      columns.add(TsqlNames.quote(f.name()));
    }
    List<String> statements = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += MAX_ROWS) {
      List<String> values = new ArrayList<>();
      for (Row row : rows.subList(from, Math.min(rows.size(), from + MAX_ROWS))) {
        List<String> literals = new ArrayList<>();
        for (StructField f : schema.fields()) {
          literals.add(literal(row.getAs(f.name())));
        }
        values.add("(" + String.join(", ", literals) + ")");
      }
      statements.add(
          "INSERT INTO "
              + CatalogueDdl.name(table)
              + " ("
              + String.join(", ", columns)
              + ")\nVALUES "
              + String.join(",\n    ", values)
              + ";");
    }
    return statements;
  }

  static String literal(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof Boolean b) {
      return b ? "1" : "0";
    }
    if (value instanceof Integer || value instanceof Long) {
      return value.toString();
    }
    if (value instanceof Timestamp ts) {
      return "CAST('" + INSTANT.format(ts.toInstant()) + "' AS datetime2(6))";
    }
    if (value instanceof List<?> || value instanceof Map<?, ?>) {
      return TsqlNames.literal(Json.write(value));
    }
    if (value instanceof scala.collection.Seq<?> seq) {
      return TsqlNames.literal(Json.write(scala.jdk.javaapi.CollectionConverters.asJava(seq)));
    }
    if (value instanceof scala.collection.Map<?, ?> map) {
      return TsqlNames.literal(Json.write(scala.jdk.javaapi.CollectionConverters.asJava(map)));
    }
    return TsqlNames.literal(value.toString());
  }
}
