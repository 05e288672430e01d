package io.weaver.sql.commands;

import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.datatest.DataTestResult;
import io.weaver.json.Json;
import io.weaver.sql.plans.Scope;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code TEST WEAVER [ITEM i | TABLE id]}: one row per test (docs/table-contract.md, "Test"),
 * the sample as JSON text. A failed test is a row, not an error.
 */
public final class TestWeaverCommand extends WeaverStatement {
  public static final StructType SCHEMA =
      new StructType()
          .add("test_id", DataTypes.StringType, false)
          .add("table_id", DataTypes.StringType, false)
          .add("kind", DataTypes.StringType, false)
          .add("severity", DataTypes.StringType, false)
          .add("status", DataTypes.StringType, false)
          .add("violations", DataTypes.LongType, false)
          .add("sample", DataTypes.StringType, true)
          .add("message", DataTypes.StringType, true);

  private final Scope scope;

  public TestWeaverCommand(Scope scope) {
    this(scope, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public TestWeaverCommand(Scope scope, Seq<Attribute> output) {
    super(output);
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "TEST WEAVER";
    var weaver = WorkspaceAccess.open(session, statement);
    List<DataTestResult> results =
        WorkspaceAccess.call(statement, () -> weaver.test(WorkspaceAccess.scope(scope)));
    return results.stream()
        .map(
            r ->
                CatalogueRowBuilder.of("TEST WEAVER", SCHEMA)
                    .set("test_id", r.testId())
                    .set("table_id", r.tableId())
                    .set("kind", r.kind())
                    .set("severity", r.severity())
                    .set("status", r.status())
                    .set("violations", r.violations())
                    .set("sample", Json.write(r.sample()))
                    .set("message", r.message())
                    .build())
        .toList();
  }

  @Override
  public List<Object> arguments() {
    return List.of(scope);
  }
}
