package io.weaver.install;

import io.delta.tables.DeltaTable;
import io.delta.tables.DeltaTableBuilder;
import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.metadata.TableDeclaration;
import io.weaver.session.WeaverConf;
import io.weaver.workspace.Identifiers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The history table of a Table with {@code History: true} (docs/table-contract.md, "History"):
 * {@code <Schema>.<Object>__History} beside the Table, one row per version of each key — the
 * Identity (when declared) and the business columns, then {@link #VALID_FROM}, {@link #VALID_TO}
 * (the live sentinel while the version is open), {@link #IS_CURRENT}, {@link #IS_DELETED} and the
 * {@link #LOAD_ID} of the load that wrote the version. Build creates it and keeps its columns a
 * superset of the Table's; loads write its rows (load.history.TableHistory).
 *
 * <p>History is never lost by Build: columns are only added (all nullable, so a version written
 * before a column existed, or after it was dropped from the Table, holds null there); a column
 * whose type changed is refused, since the versions already written hold the old type.
 */
public final class HistoryTable {
  public static final String VALID_FROM = "valid_from";
  public static final String VALID_TO = "valid_to";
  public static final String IS_CURRENT = "is_current";
  public static final String IS_DELETED = "is_deleted";
  public static final String LOAD_ID = "load_id";

  /** The history's own columns, after the versioned ones, in order. */
  public static final List<String> OWN_COLUMNS =
      List.of(VALID_FROM, VALID_TO, IS_CURRENT, IS_DELETED, LOAD_ID);

  private HistoryTable() {}

  /** Where {@code t}'s history table lives: beside the Table, as {@code Object__History}. */
  public static String path(LakehouseLayout layout, TableDeclaration t) {
    return layout.tablePath(t.item(), t.tableId().history());
  }

  /**
   * The columns a version carries, as the history holds them: the Table's Identity (when declared)
   * and business columns, all nullable.
   */
  static List<StructField> versioned(TableDeclaration t, TableShape shape) {
    List<StructField> fields = new ArrayList<>();
    t.identity()
        .ifPresent(i -> fields.add(DataTypes.createStructField(i, DataTypes.LongType, true)));
    for (BuiltColumn c : shape.columns()) {
      fields.add(DataTypes.createStructField(c.name(), c.type(), true));
    }
    return fields;
  }

  /**
   * Refuses what the history table cannot take, reading only: a business column named like one of
   * the history's own columns, or a column the history holds whose type changed.
   *
   * @throws BuildProblem naming the Table, the column and what to do
   */
  public static void check(SparkSession spark, String path, TableDeclaration t, TableShape shape) {
    List<StructField> versioned = versioned(t, shape);
    for (StructField f : versioned) {
      if (OWN_COLUMNS.contains(f.name().toLowerCase(Locale.ROOT))) {
        throw new BuildProblem(
            t.qualifiedName()
                + ": column '"
                + f.name()
                + "' has the name of one of the history table's own columns ("
                + String.join(", ", OWN_COLUMNS)
                + "); rename the column or remove 'History: true'");
      }
    }
    Map<String, DataType> held = held(spark, path);
    for (StructField f : versioned) {
      DataType before = held.get(f.name());
      if (before != null && !before.sameType(f.dataType())) {
        throw new BuildProblem(
            t.qualifiedName()
                + ": column '"
                + f.name()
                + "' changes type from "
                + before.sql()
                + " to "
                + f.dataType().sql()
                + ", but its history table ("
                + path
                + ") holds versions of the old type and history is never rewritten; give the new"
                + " column a new name, or move the history table aside first (its versions stay"
                + " readable by path). Nothing was changed.");
      }
    }
  }

  /**
   * Creates {@code t}'s history table at {@code path} when it is missing, else adds the versioned
   * columns it lacks (one commit); returns what was done, empty when nothing was. {@link #check}
   * first.
   */
  public static Optional<String> ensure(
      SparkSession spark, String path, TableDeclaration t, TableShape shape) {
    check(spark, path, t, shape);
    List<StructField> versioned = versioned(t, shape);
    Map<String, DataType> held = held(spark, path);
    if (held.isEmpty()) {
      create(spark, path, t, versioned);
      return Optional.of("history table created at " + path);
    }
    List<StructField> missing =
        versioned.stream().filter(f -> !held.containsKey(f.name())).toList();
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    for (StructField f : missing) {
      parts.add(Identifiers.quote(f.name()) + " " + f.dataType().sql());
    }
    spark.sql(
        "ALTER TABLE delta."
            + Identifiers.quote(path)
            + " ADD COLUMNS ("
            + String.join(", ", parts)
            + ")");
    return Optional.of(
        "history table gained "
            + String.join(", ", missing.stream().map(StructField::name).toList()));
  }

  /** The columns the history table at {@code path} holds, by name; empty when there is none. */
  private static Map<String, DataType> held(SparkSession spark, String path) {
    Map<String, DataType> held = new LinkedHashMap<>();
    Optional<StructType> present = DeltaLogs.schema(spark, path);
    present.ifPresent(
        schema -> {
          for (StructField f : schema.fields()) {
            held.put(f.name(), f.dataType());
          }
        });
    return held;
  }

  private static void create(
      SparkSession spark, String path, TableDeclaration t, List<StructField> versioned) {
    DeltaTableBuilder builder =
        DeltaTable.createIfNotExists(spark)
            .location(path)
            .comment("Every version of each key of " + t.qualifiedName() + " (History: true).")
            .property("delta.enableDeletionVectors", "true")
            .property(WeaverConf.ITEM_PROPERTY, t.item())
            .property(WeaverConf.TABLE_ID_PROPERTY, t.tableId().history().toString())
            .property(WeaverConf.HISTORY_OF_PROPERTY, t.qualifiedName());
    List<StructField> columns = new ArrayList<>(versioned);
    columns.add(DataTypes.createStructField(VALID_FROM, DataTypes.TimestampType, false));
    columns.add(DataTypes.createStructField(VALID_TO, DataTypes.TimestampType, false));
    columns.add(DataTypes.createStructField(IS_CURRENT, DataTypes.BooleanType, false));
    columns.add(DataTypes.createStructField(IS_DELETED, DataTypes.BooleanType, false));
    // Null for the versions history started with (rows the Table held when History was enabled).
    columns.add(DataTypes.createStructField(LOAD_ID, DataTypes.StringType, true));
    for (StructField f : columns) {
      builder =
          builder.addColumn(
              DeltaTable.columnBuilder(spark, f.name())
                  .dataType(f.dataType())
                  .nullable(f.nullable())
                  .build());
    }
    builder.execute();
  }

  /**
   * Closes every open version at {@code at}: the Table was replaced by a destructive Build, so no
   * version of its old rows is current any more; the next load's rows open new ones.
   */
  public static void closeOpenVersions(SparkSession spark, String path, Instant at) {
    DeltaTable.forPath(spark, path)
        .updateExpr(
            Identifiers.quote(IS_CURRENT),
            Map.of(
                Identifiers.quote(VALID_TO),
                "timestamp_micros(" + micros(at) + "L)",
                Identifiers.quote(IS_CURRENT),
                "false"));
  }

  private static long micros(Instant at) {
    return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000);
  }
}
