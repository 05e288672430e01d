package io.weaver.install;

import io.weaver.metadata.ColumnNote;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.ForeignKey;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.TableKeys;
import io.weaver.metadata.WorkspaceDependencies;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The declaration signature (the normalised authored declaration plus the shape and the resolved
 * dependencies; defaults that were not authored take no part, so an upgrade that only changes
 * defaults rebuilds nothing) and the structure signature (what the physical table looks like).
 */
public final class Signatures {
  private Signatures() {}

  public static String declaration(
      TableDeclaration table, List<CatalogueColumn> shape, List<WorkspaceDependencies.Edge> edges) {
    Map<String, String> parts = new TreeMap<>();
    for (String key : table.authoredKeys().keySet()) {
      parts.put("key:" + key, render(table, key));
    }
    parts.put("shape", shapeText(shape));
    parts.put(
        "dependencies",
        String.join(
            ",",
            edges.stream()
                .map(e -> e.kind() + ":" + e.dependsOnItem() + "." + e.dependsOnTableId())
                .toList()));
    parts.put("form", table.source().form().word());
    return sha256(parts.toString());
  }

  public static String structure(
      TableDeclaration table, List<CatalogueColumn> shape, int minReader, int minWriter) {
    StringBuilder text = new StringBuilder();
    text.append("identity=").append(table.identity().orElse("")).append('\n');
    text.append("shape=").append(shapeText(shape)).append('\n');
    text.append("pk=").append(table.primaryKey().map(ColumnSet::toString).orElse("")).append('\n');
    text.append("signature=").append(hasSignature(table)).append('\n');
    text.append("comparison=")
        .append(
            String.join(
                ",", comparisonColumns(table, shape.stream().map(CatalogueColumn::name).toList())))
        .append('\n');
    text.append("delta=").append(minReader).append('/').append(minWriter);
    // Only the non-default is written, so tables built before the key keep their signature.
    if (!table.deltaDeletionVectors()) {
      text.append("\ndeletionVectors=false");
    }
    return sha256(text.toString());
  }

  /** A keyed Table with a load carries {@code row_signature}. */
  public static boolean hasSignature(TableDeclaration table) {
    return table.keyed() && table.hasLoadProcedure();
  }

  /** The declared comparison columns, else every non-key business column in built order. */
  public static List<String> comparisonColumns(TableDeclaration table, List<String> shape) {
    if (!table.keyed()) {
      return List.of();
    }
    return table
        .comparisonColumns()
        .map(ColumnSet::columns)
        .orElseGet(
            () -> shape.stream().filter(c -> !table.primaryKey().get().contains(c)).toList());
  }

  private static String shapeText(List<CatalogueColumn> shape) {
    return String.join(
        ";",
        shape.stream()
            .map(c -> c.name() + " " + c.typeText() + (c.nullable() ? "" : " not null"))
            .toList());
  }

  private static String render(TableDeclaration t, String key) {
    return switch (key) {
      case TableKeys.TABLE_ID -> t.tableId().toString();
      case TableKeys.DESCRIPTION -> t.description();
      case TableKeys.LINEAGE -> t.lineage().orElse("");
      case TableKeys.OWNER -> t.owner().orElse("");
      case TableKeys.TAGS -> String.join("\u0001", t.tags());
      case TableKeys.DEPENDENCIES ->
          String.join(",", t.dependencies().stream().map(Object::toString).toList());
      case TableKeys.SCHEMA ->
          String.join(
              ";",
              t.schema().orElse(List.of()).stream().map(c -> c.name() + " " + c.type()).toList());
      case TableKeys.COLUMN_NOTES ->
          String.join("\u0001", t.columnNotes().stream().map(ColumnNote::column).toList())
              + "\u0002"
              + String.join("\u0001", t.columnNotes().stream().map(ColumnNote::text).toList());
      case TableKeys.PRIMARY_KEY -> t.primaryKey().map(ColumnSet::toString).orElse("");
      case TableKeys.UNIQUE_KEYS ->
          String.join(";", t.uniqueKeys().stream().map(ColumnSet::toString).toList());
      case TableKeys.FOREIGN_KEYS ->
          String.join(";", t.foreignKeys().stream().map(Signatures::fk).toList());
      case TableKeys.NOT_NULL -> String.join(",", t.notNull());
      case TableKeys.IDENTITY -> t.identity().orElse("");
      case TableKeys.COMPARISON_COLUMNS ->
          t.comparisonColumns().map(ColumnSet::toString).orElse("");
      case TableKeys.INCREMENTAL -> Boolean.toString(t.incremental());
      case TableKeys.DELETES -> t.deletes().word();
      case TableKeys.SEQUENCE_COLUMN -> t.sequenceColumn().orElse("");
      case TableKeys.HISTORY -> Boolean.toString(t.history());
      case TableKeys.HAS_LOAD_PROCEDURE -> Boolean.toString(t.hasLoadProcedure());
      case TableKeys.DELETE_THRESHOLD -> Integer.toString(t.deletePercentageThreshold());
      case TableKeys.UPDATE_THRESHOLD -> Integer.toString(t.updatePercentageThreshold());
      case TableKeys.ROW_THRESHOLD -> Long.toString(t.stabilityRowThreshold());
      case TableKeys.DELTA_MIN_READER -> Integer.toString(t.deltaMinReaderVersion().orElse(0));
      case TableKeys.DELTA_MIN_WRITER -> Integer.toString(t.deltaMinWriterVersion().orElse(0));
      case TableKeys.DELTA_DELETION_VECTORS -> Boolean.toString(t.deltaDeletionVectors());
      case TableKeys.EXPECTATIONS ->
          String.join(
              "\u0001",
              t.expectations().stream()
                  .map(
                      e ->
                          e.name()
                              + "\u0002"
                              + e.rule()
                              + "\u0002"
                              + e.action().word()
                              + "\u0002"
                              + e.maxPercentage().map(String::valueOf).orElse(""))
                  .toList());
      default -> "";
    };
  }

  private static String fk(ForeignKey fk) {
    return fk.childColumns()
        + "->"
        + fk.parentText()
        + "["
        + String.join(",", fk.parentColumns())
        + "]";
  }

  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
