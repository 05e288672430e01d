package io.weaver.sql.commands;

import io.weaver.api.ClientStaging;
import io.weaver.api.LoadContextToken;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.sql.plans.ClientInput;
import io.weaver.sql.plans.TableIdentity;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import scala.collection.immutable.Seq;

/**
 * Runs {@code LOAD WEAVER TABLE id (FROM VIEW v [DELETE KEYS FROM VIEW k] | DELETE KEYS FROM VIEW k
 * | WITH NO WORK | FAILED 'message') [BOOKMARK 'json'] [CONTEXT 'token'] [IN RUN 'run'] [WAIVE
 * STABILITY GATES]}: a load of the Python Table {@code id} from what a client's run of its {@code
 * read()} produced (the {@code weaver} package over Spark Connect). The views are temporary views
 * of this session; their rows enter the engine as the Table's Python staging ({@link
 * ClientStaging}), so the load validates, gates, commits and records exactly as a {@code read()}
 * run through py4j. With {@code CONTEXT} (the {@code load_context} of {@code DESCRIBE WEAVER LOAD
 * TABLE}) the load runs for the load timestamp the read saw and fails when another load committed
 * in between. With {@code IN RUN} the load is a step of a load run the session opened, as {@link
 * LoadWeaverTableCommand}'s. Returns the rows of {@code LOAD WEAVER TABLE}.
 */
public final class LoadWeaverTableFromCommand extends WeaverStatement {
  private final TableIdentity table;
  private final ClientInput input;
  private final Optional<String> bookmark;
  private final Optional<String> context;
  private final Optional<String> run;
  private final boolean waiveStabilityGates;

  /** A load of its own, in no run. */
  public LoadWeaverTableFromCommand(
      TableIdentity table,
      ClientInput input,
      Optional<String> bookmark,
      Optional<String> context,
      boolean waiveStabilityGates) {
    this(table, input, bookmark, context, Optional.empty(), waiveStabilityGates);
  }

  /** A load of its own, in no run, with the given output (a copy of one built without a run). */
  public LoadWeaverTableFromCommand(
      TableIdentity table,
      ClientInput input,
      Optional<String> bookmark,
      Optional<String> context,
      boolean waiveStabilityGates,
      Seq<Attribute> output) {
    this(table, input, bookmark, context, Optional.empty(), waiveStabilityGates, output);
  }

  /**
   * @param input what the client's {@code read()} produced
   * @param bookmark the bookmark staged with {@code set_bookmark}, JSON text; empty keeps the
   *     committed one
   * @param context the load context token of {@code DESCRIBE WEAVER LOAD TABLE} the read ran under
   * @param run the load run this load is a step of
   */
  public LoadWeaverTableFromCommand(
      TableIdentity table,
      ClientInput input,
      Optional<String> bookmark,
      Optional<String> context,
      Optional<String> run,
      boolean waiveStabilityGates) {
    this(table, input, bookmark, context, run, waiveStabilityGates, attributes(LoadRows.SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public LoadWeaverTableFromCommand(
      TableIdentity table,
      ClientInput input,
      Optional<String> bookmark,
      Optional<String> context,
      Optional<String> run,
      boolean waiveStabilityGates,
      Seq<Attribute> output) {
    super(output);
    this.table = Objects.requireNonNull(table, "table");
    this.input = Objects.requireNonNull(input, "input");
    this.bookmark = Objects.requireNonNull(bookmark, "bookmark");
    this.context = Objects.requireNonNull(context, "context");
    this.run = Objects.requireNonNull(run, "run");
    this.waiveStabilityGates = waiveStabilityGates;
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "LOAD WEAVER TABLE " + table + " " + input;
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    Optional<LoadContextToken> token =
        WorkspaceAccess.call(statement, () -> context.map(LoadContextToken::parse));
    if (token.isPresent() && token.get().loadTimestamp().isAfter(Instant.now())) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_LOAD_CONTEXT_IN_FUTURE,
          statement
              + ": CONTEXT names a load timestamp in the future ("
              + token.get().loadTimestamp()
              + "); use the load_context of DESCRIBE WEAVER LOAD TABLE "
              + table,
          ErrorFacts.of(ErrorParameter.TABLE, table));
    }
    ClientStaging staging =
        input instanceof ClientInput.ReadFailed failed
            ? ClientStaging.failed(failed.message(), token)
            : WorkspaceAccess.call(
                statement,
                () ->
                    ClientStaging.staged(
                        input.stagingView().map(v -> view(session, statement, v)).orElse(null),
                        input.deleteKeysView().map(v -> view(session, statement, v)),
                        bookmark,
                        token));
    return LoadRows.rows(
        WorkspaceAccess.call(
            statement,
            () ->
                run.isPresent()
                    ? weaver.loadFromClientInRun(
                        LoadRuns.get(session, weaver.root(), run.get()),
                        WorkspaceAccess.scope(table),
                        waiveStabilityGates,
                        staging)
                    : weaver.loadFromClient(
                        WorkspaceAccess.scope(table), waiveStabilityGates, staging)));
  }

  private Dataset<Row> view(SparkSession session, String statement, String name) {
    String quoted = quote(name);
    try {
      return session.table(quoted);
    } catch (Exception e) { // Scala's AnalysisException is checked in Java's eyes
      if (e instanceof AnalysisException || e.getCause() instanceof AnalysisException) {
        throw SparkErrors.analysis(
            WeaverErrorClass.WEAVER_VIEW_NOT_FOUND,
            statement
                + ": this session has no temporary view "
                + quoted
                + " to load "
                + table
                + " from; create it first (df.createOrReplaceTempView('"
                + name
                + "')) in the same session.",
            ErrorFacts.of(ErrorParameter.TABLE, table, ErrorParameter.VIEW, name));
      }
      throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
    }
  }

  private static String quote(String name) {
    return "`" + name.replace("`", "``") + "`";
  }

  @Override
  public List<Object> arguments() {
    return List.of(table, input, bookmark, context, run, waiveStabilityGates);
  }
}
