package io.weaver.sql.source;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The {@code weaver} data source (docs/table-contract.md, "DataFrame API"): {@code
 * spark.read.format("weaver").load("<Item>.<Schema>.<Object>")} and {@code
 * df.write.format("weaver").mode("append").save("<Item>.<Schema>.<Object>")}.
 *
 * <p>A thin provider: it resolves the identity to the item catalog's own Delta table and hands out
 * a {@link WeaverSourceTable} placeholder. The session extension's rules then do the work — reads
 * become reads of the Delta table with the live-rows filter ({@link
 * io.weaver.catalyst.rules.ShowLiveRows}), appends become loads ({@link
 * io.weaver.catalyst.rules.WritesAsLoads}) — so the data source behaves exactly like the item
 * catalogs do in SQL. Without the extension the placeholder refuses to scan or write.
 */
public final class WeaverSource implements TableProvider, DataSourceRegister {
  /** The format name. */
  public static final String NAME = "weaver";

  @Override
  public String shortName() {
    return NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return WeaverSourceTable.resolve(options).schema();
  }

  @Override
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
    return WeaverSourceTable.resolve(new CaseInsensitiveStringMap(properties));
  }
}
