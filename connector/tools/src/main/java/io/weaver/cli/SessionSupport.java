package io.weaver.cli;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.check.Check;
import io.weaver.check.CheckReport;
import io.weaver.embedded.EmbeddedSession;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.python.PythonBridge;
import io.weaver.python.PythonRead;
import io.weaver.python.PythonWorker;
import io.weaver.session.WeaverConf;
import io.weaver.workspace.Form;
import io.weaver.workspace.Target;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.spark.sql.SparkSession;

/**
 * What the Spark-backed commands share: the preamble every one of them runs (workspace and
 * lakehouse, output format, scope, Check), then the session, the workspace API and output.
 */
final class SessionSupport {
  final CliArgs args;
  final Path workspace;
  final Path lakehouse;
  final PrintStream out;
  final PrintStream err;
  private final Progress progress;

  SessionSupport(CliArgs args, PrintStream out, PrintStream err) {
    this.args = args;
    this.workspace = args.workspace();
    this.lakehouse =
        Path.of(
                WeaverConf.of(Map.of())
                    .lakehouse(args.value("--lakehouse"), Optional.of(workspace.toString())))
            .toAbsolutePath()
            .normalize();
    this.out = out;
    this.err = err;
    this.progress = Progress.of(args, err);
  }

  /** A workspace that passed Check, with the output format the command line asked for. */
  record Checked(SessionSupport support, boolean json, WorkspaceModel model) {
    CliArgs args() {
      return support.args;
    }

    /** Starts Spark on the lakehouse (seeding its file areas first) and opens the workspace. */
    WeaverWorkspace open() {
      return support.open(model);
    }

    /** {@link SessionSupport#attachPython} for this workspace's Tables. */
    Attached attachPython(WeaverWorkspace weaver, Predicate<TableDeclaration> scope) {
      return support.attachPython(weaver, model, scope);
    }
  }

  /** A command's own work, once its workspace passed Check. */
  interface Body {
    int run(Checked checked);
  }

  /** A command's own work over a scope ({@code --item} or {@code --table}, or everything). */
  interface ScopedBody {
    int run(Checked checked, Scope scope);
  }

  /**
   * The preamble of {@code build}, {@code load}, {@code run} and {@code test}: the options read
   * (workspace, lakehouse, format, scope), then Check; {@code body} runs only when Check found no
   * errors, otherwise the findings are printed and the exit code is {@link WeaverCli#FAILED}.
   */
  static int scoped(CliArgs args, PrintStream out, PrintStream err, ScopedBody body) {
    SessionSupport support = new SessionSupport(args, out, err);
    boolean json = args.json();
    Scope scope = support.scope();
    return support.checked(json, checked -> body.run(checked, scope));
  }

  /** Check first, then {@code body}; the preamble of the commands that read their scope later. */
  int checked(Body body) {
    return checked(args.json(), body);
  }

  private int checked(boolean json, Body body) {
    Optional<WorkspaceModel> model = checkedModel(json);
    if (model.isEmpty()) {
      return WeaverCli.FAILED;
    }
    try {
      return body.run(new Checked(this, json, model.get()));
    } finally {
      progress.close();
    }
  }

  /** Check first: a workspace with errors is refused before Spark starts. */
  private Optional<WorkspaceModel> checkedModel(boolean json) {
    Check.Result result = Check.analyze(workspace);
    CheckReport report = result.report();
    if (report.hasErrors()) {
      if (json) {
        out.println(CheckCommand.refusal(report));
      }
      report.findings().forEach(f -> err.println(f.toText()));
      err.println("weaver: " + CheckCommand.REFUSAL);
      return Optional.empty();
    }
    return Optional.of(result.model());
  }

  private WeaverWorkspace open(WorkspaceModel model) {
    WorkspaceFiles.seed(workspace, lakehouse, model.items(), progress::note);
    progress.note("starting Spark (lakehouse " + lakehouse + ")");
    SparkSession spark = EmbeddedSession.create(lakehouse, model.items(), args.value("--master"));
    ClassArchiveMark.sparkStarted();
    progress.follow(spark);
    threads().ifPresent(n -> spark.conf().set(WeaverConf.THREADS, Integer.toString(n)));
    // The files were checked before Spark started (checkedModel); a command does not scan them
    // again.
    return new WeaverWorkspace(spark, workspace, lakehouse.toString(), progress).checkedAs(model);
  }

  /**
   * Attaches a Python worker when a Table in {@code scope} is a Python Table that loads, so its
   * {@code read()} runs; when no worker can start, those Tables fail with the reason and how to get
   * Python with PySpark. Close the result when the loads are done.
   */
  private Attached attachPython(
      WeaverWorkspace weaver, WorkspaceModel model, Predicate<TableDeclaration> scope) {
    boolean needed =
        model.tables().stream()
            .filter(scope)
            .anyMatch(
                t ->
                    t.source().form() == Form.PYTHON
                        && t.target() == Target.LAKEHOUSE
                        && t.hasLoadProcedure());
    if (!needed || PythonBridge.runner(weaver.spark()).isPresent()) {
      return () -> {};
    }
    PythonWorker.StartResult started = PythonWorker.start(weaver.spark(), err, progress::note);
    if (started.worker().isPresent()) {
      PythonWorker worker = started.worker().get();
      return worker::close;
    }
    String why = started.failure();
    err.println("weaver: Python Tables will fail: " + why);
    PythonBridge.register(
        weaver.spark(), request -> PythonRead.failed(request.qualifiedName() + ": " + why));
    return () -> PythonBridge.unregister(weaver.spark());
  }

  /** Something attached for the duration of the loads. */
  interface Attached extends AutoCloseable {
    @Override
    void close();
  }

  /** {@code --threads N}, checked. */
  private Optional<Integer> threads() {
    Optional<String> given = args.value("--threads");
    if (given.isEmpty()) {
      return Optional.empty();
    }
    try {
      int n = Integer.parseInt(given.get().strip());
      if (n >= 1 && n <= WeaverConf.MAX_THREADS) {
        return Optional.of(n);
      }
    } catch (NumberFormatException notANumber) {
      // refused below
    }
    throw new UsageException(
        "--threads must be a whole number from 1 (one Table after another) to "
            + WeaverConf.MAX_THREADS
            + ", not '"
            + given.get()
            + "'");
  }

  Scope scope() {
    Optional<String> table = args.value("--table");
    Optional<String> item = args.value("--item");
    if (table.isPresent() && item.isPresent()) {
      throw new UsageException("give --item or --table, not both");
    }
    if (table.isPresent()) {
      try {
        return Scope.table(table.get());
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    return item.map(Scope::item).orElse(Scope.all());
  }
}
