package io.weaver.api;

import io.weaver.build.BuildOutcome;
import io.weaver.build.BuildRunner;
import io.weaver.catalog.LakehouseLayout;
import io.weaver.check.Check;
import io.weaver.check.CheckReport;
import io.weaver.metadata.TableDeclaration;
import io.weaver.metadata.WorkspaceModel;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.sql.SparkSession;

/**
 * The Java API over one workspace and one lakehouse, used by the CLI, the SQL statements and the
 * Python bindings alike: there is one engine.
 */
public final class WeaverWorkspace {
  private final SparkSession spark;
  private final Path root;
  private final LakehouseLayout layout;
  private final Consumer<String> progress;

  public WeaverWorkspace(
      SparkSession spark, Path root, String lakehouseRoot, Consumer<String> progress) {
    this.spark = spark;
    this.root = root.toAbsolutePath().normalize();
    this.layout = LakehouseLayout.at(lakehouseRoot);
    this.progress = progress;
  }

  public Path root() {
    return root;
  }

  public LakehouseLayout layout() {
    return layout;
  }

  public SparkSession spark() {
    return spark;
  }

  public CheckReport check() {
    return Check.run(root);
  }

  /** The checked model; throws {@code WeaverCheckException} when Check finds errors. */
  public WorkspaceModel model() {
    return Check.analyze(root).validModel();
  }

  /** Builds the Tables in scope (dependency order), then their catalogue rows. */
  public List<BuildOutcome> build(Scope scope, boolean allowDestructive) {
    WorkspaceModel model = model();
    requireMatch(model, scope);
    return new BuildRunner(spark, model, layout, progress).run(scope.filter(), allowDestructive);
  }

  static void requireMatch(WorkspaceModel model, Scope scope) {
    if (model.tables().stream().noneMatch(scope.filter())) {
      String what =
          scope
              .table()
              .map(id -> "Table " + id)
              .orElse(scope.item().map(i -> "item " + i).orElse("any Table"));
      throw new IllegalArgumentException(
          "the workspace "
              + model.root()
              + " has no "
              + what
              + "; check the name (names are case-sensitive)");
    }
  }

  /** Every Table of the model in scope. */
  public List<TableDeclaration> tables(Scope scope) {
    return model().tables().stream().filter(scope.filter()).toList();
  }
}
