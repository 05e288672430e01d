package io.weaver.catalyst.compat;

import java.util.Map;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableInfo;

/**
 * A staging catalog that sends creates and replaces to another catalog under an identifier and
 * properties of its choosing (the hooks below). This copy is for Spark 4.1 and later, whose {@code
 * TableInfo} overloads carry what the older ones cannot (constraints), so they are passed on as
 * {@code TableInfo}; Spark 4.0 has no {@code TableInfo} (src/main/spark-4.0 has the same hooks).
 */
public abstract class DelegatingStagingCatalog implements StagingTableCatalog {
  /** The catalog creates and replaces go to. */
  protected abstract StagingTableCatalog target();

  /** The target's identifier for a new table {@code ident}; fails when it exists. */
  protected abstract Identifier forCreate(Identifier ident, Map<String, String> properties)
      throws TableAlreadyExistsException;

  /** The target's identifier for the existing table {@code ident}; fails when it does not exist. */
  protected abstract Identifier forReplace(Identifier ident) throws NoSuchTableException;

  /** The target's identifier for {@code ident}, existing or not. */
  protected abstract Identifier forCreateOrReplace(
      Identifier ident, Map<String, String> properties);

  /** The properties the target receives for {@code ident}. */
  protected abstract Map<String, String> targetProperties(
      Identifier ident, Map<String, String> properties);

  @Override
  public Table createTable(Identifier ident, TableInfo info)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return target().createTable(forCreate(ident, info.properties()), targetInfo(ident, info));
  }

  @Override
  public StagedTable stageCreate(Identifier ident, TableInfo info)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return target().stageCreate(forCreate(ident, info.properties()), targetInfo(ident, info));
  }

  @Override
  public StagedTable stageReplace(Identifier ident, TableInfo info)
      throws NoSuchNamespaceException, NoSuchTableException {
    return target().stageReplace(forReplace(ident), targetInfo(ident, info));
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, TableInfo info)
      throws NoSuchNamespaceException {
    return target()
        .stageCreateOrReplace(
            forCreateOrReplace(ident, info.properties()), targetInfo(ident, info));
  }

  private TableInfo targetInfo(Identifier ident, TableInfo info) {
    return new TableInfo.Builder()
        .withColumns(info.columns())
        .withPartitions(info.partitions())
        .withConstraints(info.constraints())
        .withProperties(targetProperties(ident, info.properties()))
        .build();
  }
}
