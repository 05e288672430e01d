package io.weaver.plan;

import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalogue.LoadResultField;
import io.weaver.install.BuildOutcome;
import io.weaver.load.LoadPlan;
import io.weaver.load.records.ResultValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What {@code weaver run} would do with one Table (docs/plan.md): Build's action and the load's
 * predicted outcome, nothing of either written.
 */
public record TablePlan(String tableId, BuildOutcome build, LoadPlan load) {
  private static final String BUILD_ACTION = "build_action";
  private static final String BUILD_MESSAGE = "build_message";
  private static final String LOAD_STATUS = "load_status";

  /**
   * The columns of a plan ({@code PLAN WEAVER}, {@link #toMap}'s names): the load's plan fields
   * ({@link LoadResultField.View#PLAN}) with Build's action and message after {@code table_id} and
   * the load's {@code status} as {@code load_status}.
   */
  public static final StructType SCHEMA = schema();

  private static StructType schema() {
    List<StructField> fields = new ArrayList<>();
    for (LoadResultField f : LoadResultField.of(LoadResultField.View.PLAN)) {
      StructField field = f.structField(LoadResultField.View.PLAN);
      fields.add(field.copy(column(f), field.dataType(), field.nullable(), field.metadata()));
      if (f == LoadResultField.TABLE_ID) {
        fields.add(new StructField(BUILD_ACTION, DataTypes.StringType, false, Metadata.empty()));
        fields.add(new StructField(BUILD_MESSAGE, DataTypes.StringType, true, Metadata.empty()));
      }
    }
    return new StructType(fields.toArray(StructField[]::new));
  }

  /** A load field's name among a plan's columns. */
  private static String column(LoadResultField f) {
    return f == LoadResultField.STATUS ? LOAD_STATUS : f.column();
  }

  /** The plan as a Spark row of {@link #SCHEMA}, each value placed by its column name. */
  public Row toRow() {
    CatalogueRowBuilder row =
        CatalogueRowBuilder.of("PLAN WEAVER", SCHEMA)
            .set(BUILD_ACTION, build.action())
            .set(BUILD_MESSAGE, build.message());
    for (LoadResultField f : LoadResultField.of(LoadResultField.View.PLAN)) {
      Object value = f == LoadResultField.TABLE_ID ? tableId : load.value(f);
      row.set(column(f), ResultValues.rowValue(f.type(), value));
    }
    return row.build();
  }

  /** The Table would be refused or fail, in Build or in Load (exit code 1). */
  public boolean isFailure() {
    return build.isFailure() || load.isFailure();
  }

  /**
   * The plan as one flat ordered map, the same names everywhere: {@code PLAN WEAVER}'s columns, an
   * entry of {@code weaver plan --format json}'s {@code tables}, a row of {@code Workspace.plan}.
   */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("table_id", tableId);
    m.put(BUILD_ACTION, build.action());
    m.put(BUILD_MESSAGE, build.message());
    Map<String, Object> l = load.toMap();
    l.remove(LoadResultField.TABLE_ID.column());
    m.put(LOAD_STATUS, l.remove(LoadResultField.STATUS.column()));
    m.putAll(l);
    return m;
  }
}
