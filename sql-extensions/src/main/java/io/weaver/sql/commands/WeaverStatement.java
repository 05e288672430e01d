package io.weaver.sql.commands;

import io.weaver.sql.compat.WeaverLeafCommand;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import scala.collection.immutable.Seq;

/**
 * One Weaver SQL statement as Spark runs it: the parser builds this node with everything the
 * statement says, and Spark plans and runs it as the command it is ({@code ExecutedCommandExec},
 * eagerly at {@code spark.sql(...)}). There is no second class per statement and no mapping from a
 * parsed node to a command that could be forgotten.
 *
 * <p>Sealed: the statements are exactly the permitted classes, and {@code EveryStatementRunsTest}
 * requires an example of each (and of each grammar alternative) to parse into a node Spark plans.
 */
public abstract sealed class WeaverStatement extends WeaverLeafCommand
    permits BuildWeaverCommand,
        CheckWeaverCommand,
        DescribeWeaverLoadCommand,
        DescribeWeaverTableCommand,
        LoadWeaverItemCommand,
        LoadWeaverTableCommand,
        LoadWeaverTableFromCommand,
        PlanWeaverCommand,
        PublishWeaverItemCommand,
        PublishWeaverRunCommand,
        RestoreWeaverItemCommand,
        RestoreWeaverTableCommand,
        ShowWeaverLoadPlanCommand,
        ShowWeaverLoadsCommand,
        ShowWeaverPublishesCommand,
        ShowWeaverTablesCommand,
        TestWeaverCommand {

  protected WeaverStatement(Seq<Attribute> output) {
    super(output);
  }

  /** What the statement says, in constructor order (the output attributes are not part of it). */
  public abstract List<Object> arguments();

  /** The {@link #arguments()}, then the output attributes: the full constructor's parameters. */
  @Override
  public final List<Object> fields() {
    List<Object> fields = new ArrayList<>(arguments());
    fields.add(output());
    return List.copyOf(fields);
  }
}
