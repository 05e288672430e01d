package io.weaver.sql.commands;

import io.weaver.api.LoadContextToken;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.load.StagingProvider;
import io.weaver.metadata.ColumnSet;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.python.PythonReadRequest;
import io.weaver.sql.plans.TableIdentity;
import io.weaver.workspace.Form;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;

/**
 * Runs {@code DESCRIBE WEAVER LOAD TABLE id [IN RUN 'run']}: one row with what a load of the Python
 * Table starting now hands its {@code read()}, for a client that runs {@code read()} itself (a
 * Spark Connect client of the {@code weaver} package) and then loads with {@code LOAD WEAVER TABLE
 * id FROM VIEW … CONTEXT '<load_context>'}. Reading it writes nothing. A Table that is not a Python
 * Table is an error. With {@code IN RUN}, a Table that the load run skips (a dependency of the run
 * stopped) has no load context: its {@code read()} does not run, and {@code LOAD WEAVER TABLE id IN
 * RUN} reports it {@code skipped}.
 */
public final class DescribeWeaverLoadCommand extends WeaverStatement {
  /**
   * {@code table_id} ({@code Item.Schema.Object}); {@code item}; {@code schema_table_id} ({@code
   * Schema.Object}); {@code file} (the Table's {@code .py} file relative to the workspace folder,
   * {@code /}-separated); {@code class_name}; {@code files_root} (where the item's {@code
   * Files/Schema.Object} objects live, as the server sees it); {@code incremental}; {@code
   * primary_key}; and, when the load can stage (the Table is built and has a load procedure; else
   * null and a plain {@code LOAD WEAVER TABLE} says why not): {@code business_columns}, {@code
   * bookmark} (committed, JSON text, null when none), {@code last_load_timestamp}, {@code
   * load_timestamp} (ISO-8601 UTC) and {@code load_context} (the token the load takes back).
   */
  public static final StructType SCHEMA =
      new StructType()
          .add("table_id", DataTypes.StringType, false)
          .add("item", DataTypes.StringType, false)
          .add("schema_table_id", DataTypes.StringType, false)
          .add("file", DataTypes.StringType, false)
          .add("class_name", DataTypes.StringType, false)
          .add("files_root", DataTypes.StringType, false)
          .add("incremental", DataTypes.BooleanType, false)
          .add("primary_key", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("business_columns", DataTypes.createArrayType(DataTypes.StringType, false), true)
          .add("bookmark", DataTypes.StringType, true)
          .add("last_load_timestamp", DataTypes.StringType, true)
          .add("load_timestamp", DataTypes.StringType, true)
          .add("load_context", DataTypes.StringType, true);

  private final TableIdentity table;
  private final Optional<String> run;

  /** The context of a load of its own, in no run. */
  public DescribeWeaverLoadCommand(TableIdentity table) {
    this(table, Optional.empty());
  }

  public DescribeWeaverLoadCommand(TableIdentity table, Optional<String> run) {
    this(table, run, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy. */
  public DescribeWeaverLoadCommand(
      TableIdentity table, Optional<String> run, Seq<Attribute> output) {
    super(output);
    this.table = Objects.requireNonNull(table, "table");
    this.run = Objects.requireNonNull(run, "run");
  }

  @Override
  public List<Row> execute(SparkSession session) {
    String statement = "DESCRIBE WEAVER LOAD TABLE " + table;
    WeaverWorkspace weaver = WorkspaceAccess.open(session, statement);
    TableDeclaration t =
        WorkspaceAccess.call(statement, () -> weaver.table(WorkspaceAccess.scope(table)));
    if (t.source().form() != Form.PYTHON) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_NOT_A_PYTHON_TABLE,
          statement
              + ": "
              + t.qualifiedName()
              + " is a "
              + t.source().form().word()
              + " Table; only Python Tables are staged by a client (load it with LOAD WEAVER TABLE "
              + t.qualifiedName()
              + ").",
          ErrorFacts.of(ErrorParameter.TABLE, t.qualifiedName()));
    }
    boolean skipped =
        run.isPresent()
            && WorkspaceAccess.call(
                statement, () -> LoadRuns.get(session, weaver.root(), run.get()).stopped(t));
    Optional<StagingProvider.Context> context =
        skipped ? Optional.empty() : WorkspaceAccess.call(statement, () -> weaver.nextContext(t));
    Path file = t.source().file().toAbsolutePath().normalize();
    String relative = weaver.root().relativize(file).toString().replace('\\', '/');
    String pythonName =
        t.body() instanceof TableBody.Python p ? p.className() : t.tableId().pythonName();
    List<String> business = null;
    String bookmark = null;
    String last = null;
    String now = null;
    String token = null;
    if (context.isPresent()) {
      PythonReadRequest request = new PythonReadRequest(session, weaver.layout(), t, context.get());
      business = request.businessColumns();
      bookmark = request.bookmark();
      last = request.lastLoadTimestamp();
      now = request.loadTimestamp();
      token = LoadContextToken.of(context.get()).text();
    }
    return List.of(
        CatalogueRowBuilder.of("DESCRIBE WEAVER LOAD", SCHEMA)
            .set("table_id", t.qualifiedName())
            .set("item", t.item())
            .set("schema_table_id", t.tableId().toString())
            .set("file", relative)
            .set("class_name", pythonName)
            .set("files_root", weaver.layout().itemFilesRoot(t.item()))
            .set("incremental", t.incremental())
            .set("primary_key", t.primaryKey().map(ColumnSet::columns).orElse(List.of()))
            .set("business_columns", business)
            .set("bookmark", bookmark)
            .set("last_load_timestamp", last)
            .set("load_timestamp", now)
            .set("load_context", token)
            .build());
  }

  @Override
  public List<Object> arguments() {
    return List.of(table, run);
  }
}
