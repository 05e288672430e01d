package io.weaver.catalyst.compat;

import java.util.Map;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;

/**
 * A staging catalog that sends creates and replaces to another catalog under an identifier and
 * properties of its choosing (the hooks below). This copy is for Spark 4.0, which has no {@code
 * TableInfo} overloads: the subclass's column-array overloads are the whole surface
 * (src/main/spark-4.1 adds the {@code TableInfo} ones over the same hooks).
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
}
