package io.weaver.sql.commands;

import io.weaver.api.WeaverWorkspace;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import scala.collection.immutable.Seq;

/**
 * Runs {@code PUBLISH WEAVER RUN 'run'}: ends a load run the session opened ({@link
 * ShowWeaverLoadPlanCommand}) as a load of several Tables ends. Each item that publishes together,
 * all of whose Tables reported in the run and none stopped, is published; the committed loads of
 * the others say why not. Returns every row the run's Tables reported, in load order, with those
 * warnings (the rows {@code LOAD WEAVER ITEM} returns), and forgets the run.
 */
public final class PublishWeaverRunCommand extends WeaverStatement {
  private final String run;

  public PublishWeaverRunCommand(String run) {
    this(run, attributes(LoadRows.SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public PublishWeaverRunCommand(String run, Seq<Attribute> output) {
    super(output);
    this.run = Objects.requireNonNull(run, "run");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "PUBLISH WEAVER RUN '" + run.replace("'", "''") + "'";
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    return LoadRows.rows(
        WorkspaceAccess.call(
            statement, () -> weaver.finish(LoadRuns.end(session, weaver.root(), run))));
  }

  @Override
  public List<Object> arguments() {
    return List.of(run);
  }
}
