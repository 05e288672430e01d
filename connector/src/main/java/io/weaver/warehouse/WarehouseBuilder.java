package io.weaver.warehouse;

import io.weaver.install.BuildOutcome;
import io.weaver.json.Json;
import io.weaver.metadata.ManagedColumns;
import io.weaver.metadata.SqlProgram;
import io.weaver.metadata.TableBody;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceDependencies;
import io.weaver.metadata.WorkspaceModel;
import io.weaver.workspace.Target;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Build for the Tables of one Warehouse item, through its endpoint: the catalogue first, then per
 * Table its shape (declared, or described by the endpoint), a comparison with the item's {@code
 * _.Registry}, the DDL that follows (create, add nullable columns, re-sign rows when the comparison
 * set changed), the load procedure and the catalogue rows.
 *
 * <p>Build protection holds as on a Lakehouse: a dropped or retyped column, a new NOT NULL column,
 * a changed key or identity would lose data and are refused with what would be lost. Replacing a
 * Warehouse table (CTAS + {@code sp_rename}) is not done by Weaver yet; the message says how to do
 * it by hand.
 */
public final class WarehouseBuilder {
  private final WorkspaceModel model;
  private final WarehouseEndpoint endpoint;
  private final Map<String, String> environment;
  private final Consumer<String> progress;

  public WarehouseBuilder(
      WorkspaceModel model,
      WarehouseEndpoint endpoint,
      Map<String, String> environment,
      Consumer<String> progress) {
    this.model = model;
    this.endpoint = endpoint;
    this.environment = environment;
    this.progress = progress;
  }

  /**
   * Builds (or with {@code write} false, plans) the item's Tables, in the order given; {@code
   * createCatalogue} false when this run already created the item's catalogue tables.
   */
  public List<BuildOutcome> build(
      List<TableDeclaration> tables,
      java.util.function.Function<TableDeclaration, List<WorkspaceDependencies.Edge>> edges,
      boolean write,
      boolean createCatalogue) {
    List<BuildOutcome> outcomes = new ArrayList<>();
    try (WarehouseSession session = WarehouseSession.open(endpoint, environment)) {
      if (createCatalogue) {
        CatalogueDdl.all().forEach(session::execute);
      }
      for (TableDeclaration t : tables) {
        progress.accept((write ? "build " : "plan build ") + t.qualifiedName() + " (Warehouse)");
        try {
          outcomes.add(buildOne(session, t, edges.apply(t), write));
        } catch (WarehouseException | IllegalArgumentException e) {
          outcomes.add(new BuildOutcome(t.qualifiedName(), "failed", e.getMessage()));
        }
      }
    } catch (WarehouseException e) {
      for (TableDeclaration t : tables) {
        if (outcomes.stream().noneMatch(o -> o.tableId().equals(t.qualifiedName()))) {
          outcomes.add(new BuildOutcome(t.qualifiedName(), "failed", e.getMessage()));
        }
      }
    }
    return outcomes;
  }

  private BuildOutcome buildOne(
      WarehouseSession session,
      TableDeclaration t,
      List<WorkspaceDependencies.Edge> edges,
      boolean write) {
    WarehouseTable table =
        WarehouseTable.declared(t).orElseGet(() -> new WarehouseTable(t, describe(session, t)));
    String signature = WarehouseCatalogue.signature(table, edges);
    String id = table.tableId();
    // A plan against a Warehouse never built has no catalogue yet: nothing is registered.
    boolean catalogued =
        session
            .scalar("SELECT CAST(OBJECT_ID(N'[_].[Registry]', N'U') AS varchar(20))")
            .isPresent();
    Optional<String> registered =
        catalogued
            ? session.scalar(
                "SELECT [declaration_signature] FROM [_].[Registry] WHERE [object_id] = ?", id)
            : Optional.empty();
    List<String> existing =
        session
            .rows(
                "SELECT [name] FROM sys.columns WHERE [object_id] = OBJECT_ID(?) ORDER BY [column_id]",
                table.target())
            .stream()
            .map(r -> (String) r.get("name"))
            .toList();
    // A Table built before Weaver kept row history gets it (and the restore procedure) now.
    boolean restorable =
        !t.hasLoadProcedure()
            || session
                .scalar(
                    "SELECT CAST(OBJECT_ID(?, N'P') AS varchar(20))", RestoreProcedure.nameOf(t))
                .isPresent();
    if (!existing.isEmpty() && restorable && registered.filter(signature::equals).isPresent()) {
      return new BuildOutcome(t.qualifiedName(), "unchanged", "declaration unchanged");
    }
    List<Batch> ddl = new ArrayList<>();
    boolean resign = false;
    String action;
    String message;
    if (existing.isEmpty()) {
      ddl.addAll(WarehouseDdl.table(table));
      action = "created";
      message =
          "created " + table.target() + " with " + table.columns().size() + " business column(s)";
    } else {
      Change change = compare(table, existing);
      if (change.lost().isPresent()) {
        return new BuildOutcome(
            t.qualifiedName(),
            "refused",
            t.qualifiedName()
                + ": Build protection: "
                + change.lost().get()
                + ". Weaver does not replace Warehouse tables yet: copy the rows you need, drop "
                + table.target()
                + " and build again.");
      }
      for (WarehouseColumn added : change.added()) {
        ddl.add(
            new Batch(
                "add-column",
                "ALTER TABLE "
                    + table.target()
                    + " ADD "
                    + TsqlNames.quote(added.name())
                    + " "
                    + added.type()
                    + " NULL;"));
      }
      resign = table.signed() && comparisonChanged(session, table);
      if (resign) {
        ddl.add(
            new Batch(
                "re-sign",
                "UPDATE t SET "
                    + WarehouseNames.SIGNATURE
                    + " = "
                    + RowSignatureSql.hash(table.comparisonColumns(), "t")
                    + " FROM "
                    + table.target()
                    + " AS t;"));
      }
      action = change.added().isEmpty() && !resign ? "updated" : "altered";
      message =
          change.added().isEmpty() && !resign
              ? "catalogue and load procedure updated"
              : (change.added().isEmpty() ? "" : "added column(s) " + names(change.added()) + "; ")
                  + (resign ? "rows re-signed over the new comparison columns" : "");
    }
    if (!write) {
      return new BuildOutcome(t.qualifiedName(), action, "would be " + message);
    }
    ddl.forEach(session::execute);
    if (t.hasLoadProcedure()) {
      history(session, table, resign);
      if (t.history()) {
        versions(session, table);
      }
      session.execute(LoadProcedure.of(table, endpoint.form()));
      session.execute(RestoreProcedure.of(table));
    }
    session.executeInTransaction(
        "the catalogue rows of " + t.qualifiedName(),
        WarehouseCatalogue.statements(model, table, edges, Instant.now()));
    return new BuildOutcome(t.qualifiedName(), action, message);
  }

  /**
   * The Table's row history ({@link UndoTable}) kept in step with the table: created when missing,
   * given the columns the table just gained, and its images re-signed when the table's rows were (a
   * restore puts images back, and they must compare as the table's rows do).
   */
  private static void history(WarehouseSession session, WarehouseTable table, boolean resign) {
    session.execute(UndoTable.create(table));
    String undo = UndoTable.name(table);
    addMissing(session, undo, table.columns(), "undo-add-column");
    if (resign) {
      session.execute(
          new Batch(
              "undo-re-sign",
              "UPDATE u SET "
                  + WarehouseNames.SIGNATURE
                  + " = "
                  + RowSignatureSql.hash(table.comparisonColumns(), "u")
                  + " FROM "
                  + undo
                  + " AS u WHERE u."
                  + UndoTable.KIND
                  + " = "
                  + TsqlNames.literal(UndoTable.IMAGE)
                  + ";"));
    }
  }

  /**
   * The history table of a Table with {@code History: true} ({@link WarehouseHistoryTable}):
   * created (and started from the Table's rows) when missing, else given the columns the Table
   * gained. Nothing is dropped from it: versions written before a column was dropped keep it.
   */
  private static void versions(WarehouseSession session, WarehouseTable table) {
    session.execute(WarehouseHistoryTable.create(table));
    addMissing(session, WarehouseHistoryTable.name(table), table.columns(), "history-add-column");
  }

  /** Adds to {@code name} each of {@code columns} it lacks, nullable. */
  private static void addMissing(
      WarehouseSession session, String name, List<WarehouseColumn> columns, String label) {
    List<String> present =
        session
            .rows("SELECT [name] FROM sys.columns WHERE [object_id] = OBJECT_ID(?)", name)
            .stream()
            .map(r -> (String) r.get("name"))
            .toList();
    for (WarehouseColumn c : columns) {
      if (!present.contains(c.name())) {
        session.execute(
            new Batch(
                label,
                "ALTER TABLE "
                    + name
                    + " ADD "
                    + TsqlNames.quote(c.name())
                    + " "
                    + c.type()
                    + " NULL;"));
      }
    }
  }

  /** What an existing table lacks (new nullable columns) or would lose. */
  private record Change(List<WarehouseColumn> added, Optional<String> lost) {}

  private static Change compare(WarehouseTable table, List<String> existing) {
    List<String> managed = ManagedColumns.names(Target.WAREHOUSE);
    List<String> business =
        existing.stream()
            .filter(c -> !managed.contains(c))
            .filter(c -> table.identity().map(id -> !id.equals(c)).orElse(true))
            .toList();
    List<String> declared = table.columns().stream().map(WarehouseColumn::name).toList();
    List<String> dropped = business.stream().filter(c -> !declared.contains(c)).toList();
    if (!dropped.isEmpty()) {
      return new Change(
          List.of(), Optional.of("column(s) " + dropped + " would be dropped with their data"));
    }
    if (table.identity().isPresent() != existing.contains(table.identity().orElse(""))
        || (table.signed() != existing.contains(ManagedColumns.names(Target.WAREHOUSE).get(3)))) {
      return new Change(List.of(), Optional.of("the identity column or the key changed"));
    }
    List<WarehouseColumn> added =
        table.columns().stream().filter(c -> !business.contains(c.name())).toList();
    List<String> notNull =
        added.stream().filter(c -> !c.nullable()).map(WarehouseColumn::name).toList();
    if (!notNull.isEmpty()) {
      return new Change(
          List.of(),
          Optional.of(
              "new NOT NULL column(s) "
                  + notNull
                  + " need a rebuild (the Warehouse adds only nullable columns)"));
    }
    return new Change(added, Optional.empty());
  }

  private boolean comparisonChanged(WarehouseSession session, WarehouseTable table) {
    Optional<String> previous =
        session.scalar(
            "SELECT [comparison_columns] FROM [_].[TableDictionary] WHERE [table_id] = ?",
            table.tableId());
    String now = Json.write(table.comparisonColumns().stream().map(WarehouseColumn::name).toList());
    return previous.isPresent() && !previous.get().equals(now);
  }

  /**
   * The staging query's shape as the endpoint describes it ({@code sp_describe_first_result_set}
   * over the setup and the query, the named parameters declared first), for a Table without {@code
   * Schema}.
   */
  private static List<WarehouseColumn> describe(WarehouseSession session, TableDeclaration t) {
    if (!(t.body() instanceof TableBody.Sql body)) {
      throw new IllegalArgumentException(t.qualifiedName() + " has no T-SQL body");
    }
    SqlProgram program = SqlProgram.of(body);
    String batch =
        "DECLARE @load_timestamp datetime2(6) = SYSUTCDATETIME(),"
            + " @last_load_timestamp datetime2(6) = CAST('1900-01-01' AS datetime2(6));\n"
            + StagingStatements.bind(SqlProgram.setupText(body))
            + "\n;"
            + StagingStatements.bind(program.stagingQuery());
    List<Map<String, Object>> described =
        session.rows("EXEC sp_describe_first_result_set @tsql = ?", batch);
    if (described.isEmpty()) {
      throw new IllegalArgumentException(
          t.qualifiedName()
              + ": the endpoint could not describe the staging query's result; declare Schema");
    }
    List<String> required = t.requiredColumns();
    List<WarehouseColumn> columns = new ArrayList<>();
    for (Map<String, Object> column : described) {
      String name = (String) column.get("name");
      String type = (String) column.get("system_type_name");
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException(
            t.qualifiedName() + ": a staging query column has no name; give every column an alias");
      }
      columns.add(new WarehouseColumn(name, type, !required.contains(name)));
    }
    return columns;
  }

  private static String names(List<WarehouseColumn> columns) {
    return String.join(", ", columns.stream().map(WarehouseColumn::name).toList());
  }
}
