package io.weaver.sql.commands;

import io.weaver.catalogue.CatalogueRowBuilder;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.check.Check;
import io.weaver.findings.Finding;
import io.weaver.session.WeaverConf;
import java.net.URI;
import java.nio.file.Files;
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
 * Runs {@code CHECK WEAVER [WORKSPACE 'path']}: one row per finding, in report order. The workspace
 * is the statement's, else the session conf {@value WeaverConf#WORKSPACE}.
 */
public final class CheckWeaverCommand extends WeaverStatement {
  /** The rows' schema: one finding each (docs/table-contract.md, "Check"). */
  public static final StructType SCHEMA =
      new StructType()
          .add("path", DataTypes.StringType, false)
          .add("line", DataTypes.IntegerType, false)
          .add("column", DataTypes.IntegerType, false)
          .add("severity", DataTypes.StringType, false)
          .add("rule", DataTypes.StringType, false)
          .add("message", DataTypes.StringType, false);

  private final Optional<String> workspace;

  public CheckWeaverCommand(Optional<String> workspace) {
    this(workspace, attributes(SCHEMA));
  }

  /** The full constructor, used by Spark's reflective copy; keeps the output's ids. */
  public CheckWeaverCommand(Optional<String> workspace, Seq<Attribute> output) {
    super(output);
    this.workspace = Objects.requireNonNull(workspace, "workspace");
  }

  /** The workspace given in the statement; empty means the session conf. */
  public Optional<String> workspace() {
    return workspace;
  }

  @Override
  public List<Row> execute(SparkSession session) {
    Path root = workspaceFolder(session);
    return Check.run(root).findings().stream().map(CheckWeaverCommand::row).toList();
  }

  private Path workspaceFolder(SparkSession session) {
    String location =
        workspace
            .or(() -> Optional.ofNullable(session.conf().get(WeaverConf.WORKSPACE, null)))
            .filter(s -> !s.isBlank())
            .orElseThrow(
                () ->
                    SparkErrors.analysis(
                        WeaverErrorClass.WEAVER_NO_WORKSPACE,
                        "CHECK WEAVER: no workspace given. Write CHECK WEAVER WORKSPACE '<path>' or"
                            + " set the session conf "
                            + WeaverConf.WORKSPACE
                            + " to the workspace folder.",
                        ErrorFacts.of(ErrorParameter.SETTING, WeaverConf.WORKSPACE)));
    Path folder = localPath(location);
    if (!Files.isDirectory(folder)) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_WORKSPACE_NOT_FOUND,
          "CHECK WEAVER: workspace folder '" + folder + "' does not exist or is not a folder.",
          ErrorFacts.of(ErrorParameter.WORKSPACE, folder));
    }
    return folder;
  }

  /** A plain path, or a {@code file:} URI; other schemes are not readable here yet. */
  public static Path localPath(String location) {
    try {
      if (location.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*")) { // a scheme, not a drive letter
        URI uri = URI.create(location);
        if (!"file".equalsIgnoreCase(uri.getScheme())) {
          throw SparkErrors.analysis(
              WeaverErrorClass.WEAVER_WORKSPACE_NOT_LOCAL,
              "CHECK WEAVER: workspace '"
                  + location
                  + "' is a "
                  + uri.getScheme()
                  + " URI; CHECK WEAVER reads workspaces from the local file system. Give a local"
                  + " path or a file: URI.",
              ErrorFacts.of(ErrorParameter.WORKSPACE, location));
        }
        return Path.of(uri);
      }
      return Path.of(location);
    } catch (IllegalArgumentException e) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_WORKSPACE_INVALID_PATH,
          "CHECK WEAVER: workspace '" + location + "' is not a valid path: " + e.getMessage(),
          ErrorFacts.of(ErrorParameter.WORKSPACE, location));
    }
  }

  private static Row row(Finding f) {
    return CatalogueRowBuilder.of("CHECK WEAVER", SCHEMA)
        .set("path", f.path())
        .set("line", f.line())
        .set("column", f.column())
        .set("severity", f.severity().word())
        .set("rule", f.rule())
        .set("message", f.message())
        .build();
  }

  @Override
  public List<Object> arguments() {
    return List.of(workspace);
  }
}
