package io.weaver.catalyst.rules;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;

/**
 * What the rules need to know of a Weaver table (docs/table-contract.md): Build's markers, the
 * managed columns and the option names. The session extension implements it from the connector's
 * definitions and passes it in when it injects the rules; catalyst-rules sits below the connector
 * and so cannot read them itself.
 */
public interface TableContract {
  /**
   * Whether a Delta table with these properties (Delta configuration, or a catalog table's
   * properties) is a Weaver table: Build marks every Table it creates.
   */
  boolean isWeaverTable(Map<String, String> properties);

  /**
   * The Table's identity {@code <Item>.<Schema>.<Object>} from Build's markers, if both are set.
   */
  Optional<String> identity(Map<String, String> properties);

  /**
   * Whether the catalog {@code catalogName} of {@code session} is a Weaver item catalog, whose
   * tables are read by their Weaver name {@code <Item>.<Schema>.<Object>}.
   */
  boolean isItemCatalog(SparkSession session, String catalogName);

  /** The managed audit and signature columns, in table order (the identity column not included). */
  List<String> managedColumns();

  /** The managed column a live row holds the live sentinel in (a soft delete sets it). */
  String deleteTimeColumn();

  /** The read option asking for soft-deleted rows too. */
  String includeDeletedOption();

  /** The read option failing a read of a table older than the given Delta version. */
  String minVersionOption();

  /** The write option of a DataFrame load waiving the Table's stability gates. */
  String waiveStabilityGatesOption();

  /** The {@code format("weaver")} placeholder {@code table} stands for, when it is one. */
  Optional<Placeholder> placeholder(Table table);

  /**
   * A {@code format("weaver")} table as the data source hands it to Spark; the rules replace it
   * during analysis, as it cannot scan or write itself.
   *
   * @param identity {@code <Item>.<Schema>.<Object>} as given to {@code load}/{@code save}
   * @param catalog the item's catalog
   * @param identifier the table in that catalog
   * @param delta the catalog's own table (Delta's {@code DeltaTableV2} for Weaver tables)
   */
  record Placeholder(String identity, TableCatalog catalog, Identifier identifier, Table delta) {}
}
