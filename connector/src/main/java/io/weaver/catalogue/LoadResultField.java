package io.weaver.catalogue;

import static io.weaver.catalogue.LoadResultField.Presence.ABSENT;
import static io.weaver.catalogue.LoadResultField.Presence.APPENDED;
import static io.weaver.catalogue.LoadResultField.Presence.OPTIONAL;
import static io.weaver.catalogue.LoadResultField.Presence.REQUIRED;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The fields of a load's result, defined once (docs/table-contract.md, "Load"): each with its
 * column name, its Spark type and where it appears. Three views read this one list in its order:
 *
 * <ul>
 *   <li>{@link View#RESULT}: the result row of a load: {@code LOAD WEAVER}'s columns, the JSON of
 *       {@code weaver load}, the Python package's rows;
 *   <li>{@link View#HISTORY}: the columns of {@code _.LoadHistory} ({@link
 *       CatalogueTable#LOAD_HISTORY}, whose evolution rules apply: a new history column is {@code
 *       APPENDED});
 *   <li>{@link View#PLAN}: a plan's load columns ({@code PLAN WEAVER}, {@code weaver plan}).
 * </ul>
 *
 * The constants are in the order every view shows its columns; a view skips what it lacks. A field
 * added here reaches every view that lists it, and {@code LoadResult}'s and {@code LoadPlan}'s
 * value switches (exhaustive over this enum) do not compile until they give its value.
 */
public enum LoadResultField {
  LOAD_ID("load_id", Types.STRING, REQUIRED, REQUIRED, ABSENT),
  TABLE_ID("table_id", Types.STRING, REQUIRED, REQUIRED, REQUIRED),
  STATUS("status", Types.STRING, REQUIRED, REQUIRED, REQUIRED),
  STARTED_AT("started_at", Types.TIMESTAMP, ABSENT, OPTIONAL, ABSENT),
  FINISHED_AT("finished_at", Types.TIMESTAMP, ABSENT, OPTIONAL, ABSENT),
  LOAD_TIMESTAMP("load_timestamp", Types.TIMESTAMP, ABSENT, OPTIONAL, ABSENT),
  ROWS_INSERTED("rows_inserted", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  ROWS_UPDATED("rows_updated", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  ROWS_DELETED("rows_deleted", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  ROWS_REVIVED("rows_revived", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  ROWS_UNCHANGED("rows_unchanged", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  ROWS_REJECTED("rows_rejected", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  TARGET_LIVE_ROWS_BEFORE("target_live_rows_before", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  TARGET_LIVE_ROWS_AFTER("target_live_rows_after", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  DELTA_VERSION("delta_version", Types.BIGINT, REQUIRED, OPTIONAL, REQUIRED),
  /** Each stability gate's measurement ({@link #GATE}). */
  GATES("gates", DataTypes.createArrayType(Types.GATE, false), ABSENT, ABSENT, REQUIRED),
  /** A sample of the rows the load would reject ({@link #REJECTION}). */
  REJECTIONS(
      "rejections", DataTypes.createArrayType(Types.REJECTION, false), ABSENT, ABSENT, REQUIRED),
  GATES_WAIVED("gates_waived", Types.BOOLEAN, REQUIRED, OPTIONAL, ABSENT),
  DURATION_MS("duration_ms", Types.BIGINT, REQUIRED, ABSENT, ABSENT),
  MESSAGE("message", Types.STRING, OPTIONAL, OPTIONAL, OPTIONAL),
  WARNINGS("warnings", Types.STRINGS, REQUIRED, ABSENT, REQUIRED),
  /** What a plan assumed. */
  NOTES("notes", Types.STRINGS, ABSENT, ABSENT, REQUIRED),
  ROWS_QUARANTINED("rows_quarantined", Types.BIGINT, REQUIRED, ABSENT, REQUIRED),
  /**
   * Staging rows the load did not apply because a row with a higher sequence value exists for their
   * key (Sequence column key).
   */
  ROWS_STALE("rows_stale", Types.BIGINT, REQUIRED, APPENDED, REQUIRED),
  /** Per expectation, the rows violating it ({@link #EXPECTATION}). */
  EXPECTATIONS(
      "expectations",
      DataTypes.createArrayType(Types.EXPECTATION, false),
      REQUIRED,
      ABSENT,
      REQUIRED),
  /** The versions a load would write into the Table's history; null without history. */
  HISTORY_VERSIONS("history_versions", Types.BIGINT, ABSENT, ABSENT, OPTIONAL);

  /** Per expectation of a load: its name, action, the rows violating it and a sample of keys. */
  public static final StructType EXPECTATION = Types.EXPECTATION;

  /** Per stability gate of a plan: what it measured and its verdict. */
  public static final StructType GATE = Types.GATE;

  /** A rejected row of a plan's sample. */
  public static final StructType REJECTION = Types.REJECTION;

  /** Where a view has a field: not at all, never null, nullable, or appended (history only). */
  enum Presence {
    ABSENT,
    REQUIRED,
    OPTIONAL,
    APPENDED
  }

  /** The places a load's result is shown or kept. */
  public enum View {
    RESULT,
    HISTORY,
    PLAN
  }

  private final String column;
  private final DataType type;
  private final Presence result;
  private final Presence history;
  private final Presence plan;

  LoadResultField(String column, DataType type, Presence result, Presence history, Presence plan) {
    this.column = column;
    this.type = type;
    this.result = result;
    this.history = history;
    this.plan = plan;
  }

  /** The column name, the same in every view. */
  public String column() {
    return column;
  }

  public DataType type() {
    return type;
  }

  private Presence in(View view) {
    return switch (view) {
      case RESULT -> result;
      case HISTORY -> history;
      case PLAN -> plan;
    };
  }

  /** Whether {@code view} shows this field. */
  public boolean shownIn(View view) {
    return in(view) != ABSENT;
  }

  /** The fields {@code view} shows, in its column order. */
  public static List<LoadResultField> of(View view) {
    return Arrays.stream(values()).filter(f -> f.shownIn(view)).toList();
  }

  /** This field as a column of {@code view}. */
  public StructField structField(View view) {
    if (!shownIn(view)) {
      throw new IllegalArgumentException(view + " has no field " + column);
    }
    return new StructField(column, type, in(view) != REQUIRED, Metadata.empty());
  }

  /** The schema of {@code view}'s rows. */
  public static StructType schema(View view) {
    return new StructType(
        of(view).stream().map(f -> f.structField(view)).toArray(StructField[]::new));
  }

  /** The columns of {@code _.LoadHistory}. */
  static CatalogueField[] historyColumns() {
    return of(View.HISTORY).stream()
        .map(
            f ->
                switch (f.history) {
                  case REQUIRED -> CatalogueField.required(f.column, f.type);
                  case OPTIONAL -> CatalogueField.optional(f.column, f.type);
                  case APPENDED -> CatalogueField.appended(f.column, f.type);
                  case ABSENT -> throw new IllegalStateException(f.column);
                })
        .toArray(CatalogueField[]::new);
  }

  /** The nested types, apart so the constants above can use them. */
  private static final class Types {
    static final DataType STRING = DataTypes.StringType;
    static final DataType BIGINT = DataTypes.LongType;
    static final DataType BOOLEAN = DataTypes.BooleanType;
    static final DataType TIMESTAMP = DataTypes.TimestampType;
    static final DataType STRINGS = DataTypes.createArrayType(DataTypes.StringType, false);

    static final StructType EXPECTATION =
        new StructType()
            .add("expectation", DataTypes.StringType, false)
            .add("action", DataTypes.StringType, false)
            .add("rows_violating", DataTypes.LongType, false)
            .add("sample_keys", DataTypes.createArrayType(DataTypes.StringType, false), false);

    static final StructType GATE =
        new StructType()
            .add("gate", DataTypes.StringType, false)
            .add("rows", DataTypes.LongType, false)
            .add("live_rows", DataTypes.LongType, false)
            .add("percent", DataTypes.DoubleType, false)
            .add("threshold", DataTypes.IntegerType, false)
            .add("verdict", DataTypes.StringType, false);

    static final StructType REJECTION =
        new StructType()
            .add("reason", DataTypes.StringType, true)
            .add("key_json", DataTypes.StringType, true)
            .add("row_json", DataTypes.StringType, true);
  }
}
