package io.weaver.sql.commands;

import io.weaver.api.Scope;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import scala.collection.immutable.Seq;

/**
 * Runs {@code LOAD WEAVER ITEM i [WAIVE STABILITY GATES]}: every loadable Table of the item in
 * dependency order, one result row each (docs/table-contract.md, "Load"); dependants of a failed
 * Table are {@code skipped}.
 */
public final class LoadWeaverItemCommand extends WeaverStatement {
  private final String item;
  private final boolean waiveStabilityGates;

  public LoadWeaverItemCommand(String item, boolean waiveStabilityGates) {
    this(item, waiveStabilityGates, attributes(LoadRows.SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public LoadWeaverItemCommand(String item, boolean waiveStabilityGates, Seq<Attribute> output) {
    super(output);
    this.item = Objects.requireNonNull(item, "item");
    this.waiveStabilityGates = waiveStabilityGates;
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "LOAD WEAVER ITEM " + item;
    var weaver = WorkspaceAccess.open(session, statement);
    return LoadRows.rows(
        WorkspaceAccess.call(statement, () -> weaver.load(Scope.item(item), waiveStabilityGates)));
  }

  @Override
  public List<Object> arguments() {
    return List.of(item, waiveStabilityGates);
  }
}
