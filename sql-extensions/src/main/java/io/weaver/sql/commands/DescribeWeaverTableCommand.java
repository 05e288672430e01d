package io.weaver.sql.commands;

import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.Catalogue;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalogue.CatalogueTable;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.metadata.TableDeclaration;
import io.weaver.sql.plans.TableIdentity;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code DESCRIBE WEAVER TABLE id}: one row per column of the built Table, business and
 * managed, from {@code _.ColumnDictionary} in ordinal order. A Table that is not built is an error
 * that says to build it.
 */
public final class DescribeWeaverTableCommand extends WeaverStatement {
  public static final StructType SCHEMA =
      new StructType()
          .add("column_name", DataTypes.StringType, false)
          .add("ordinal", DataTypes.IntegerType, false)
          .add("data_type", DataTypes.StringType, false)
          .add("nullable", DataTypes.BooleanType, false)
          .add("managed_role", DataTypes.StringType, true)
          .add("note", DataTypes.StringType, true);

  private final TableIdentity table;

  public DescribeWeaverTableCommand(TableIdentity table) {
    this(table, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public DescribeWeaverTableCommand(TableIdentity table, Seq<Attribute> output) {
    super(output);
    this.table = Objects.requireNonNull(table, "table");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "DESCRIBE WEAVER TABLE " + table;
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    TableDeclaration t =
        WorkspaceAccess.call(statement, () -> weaver.tables(WorkspaceAccess.scope(table))).stream()
            .findFirst()
            .orElseThrow(
                () ->
                    SparkErrors.analysis(
                        WeaverErrorClass.WEAVER_TABLE_NOT_FOUND,
                        statement
                            + ": the workspace has no Table "
                            + table
                            + "; check the name (names are case-sensitive).",
                        ErrorFacts.of(ErrorParameter.TABLE, table)));
    Catalogue catalogue = new Catalogue(weaver.spark(), weaver.layout(), t.item());
    List<Row> columns =
        catalogue
            .readFor(CatalogueTable.COLUMN_DICTIONARY, "table_id", t.tableId().toString())
            .orderBy("ordinal")
            .collectAsList();
    if (columns.isEmpty()) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_TABLE_NOT_BUILT,
          statement
              + ": "
              + t.qualifiedName()
              + " is not built yet; run BUILD WEAVER TABLE "
              + t.qualifiedName()
              + " first.",
          ErrorFacts.of(ErrorParameter.TABLE, t.qualifiedName()));
    }
    // Each result column is read from the catalogue row by its name.
    String[] names = SCHEMA.fieldNames();
    return columns.stream()
        .map(
            r -> {
              CatalogueRowBuilder row = CatalogueRowBuilder.of("DESCRIBE WEAVER TABLE", SCHEMA);
              Arrays.stream(names).forEach(n -> row.set(n, r.getAs(n)));
              return row.build();
            })
        .toList();
  }

  @Override
  public List<Object> arguments() {
    return List.of(table);
  }
}
