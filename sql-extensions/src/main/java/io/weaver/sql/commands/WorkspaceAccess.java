package io.weaver.sql.commands;

import io.weaver.api.Scope;
import io.weaver.api.WeaverWorkspace;
import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.SparkErrors;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.check.WeaverCheckException;
import io.weaver.lakehouse.ItemCatalogs;
import io.weaver.session.WeaverConf;
import io.weaver.sql.plans.TableIdentity;
import io.weaver.workspace.Identity;
import io.weaver.workspace.TableId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/**
 * How the Weaver statements reach the one engine: the workspace from the session conf {@value
 * WeaverConf#WORKSPACE}, the lakehouse from {@value WeaverConf#LAKEHOUSE} (default {@code
 * <workspace>/.weaver/lakehouse}), and the workspace's items registered as catalogs on the session.
 */
public final class WorkspaceAccess {
  private WorkspaceAccess() {}

  /**
   * The workspace API over the session's workspace, with every item registered as a catalog; it
   * checks the workspace here, once, and hands that checked model to the statement's engine calls
   * ({@link WeaverWorkspace#checkingOnce()}).
   */
  public static WeaverWorkspace open(SparkSession session, String statement) {
    WeaverConf conf = WeaverConf.of(session);
    String location =
        Optional.ofNullable(session.conf().get(WeaverConf.WORKSPACE, null))
            .filter(s -> !s.isBlank())
            .orElseThrow(
                () ->
                    SparkErrors.analysis(
                        WeaverErrorClass.WEAVER_NO_WORKSPACE,
                        statement
                            + ": no workspace. Set the session conf "
                            + WeaverConf.WORKSPACE
                            + " to the workspace folder (SET "
                            + WeaverConf.WORKSPACE
                            + "=/path/to/workspace).",
                        ErrorFacts.of(ErrorParameter.SETTING, WeaverConf.WORKSPACE)));
    Path root = CheckWeaverCommand.localPath(location);
    if (!Files.isDirectory(root)) {
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_WORKSPACE_NOT_FOUND,
          statement + ": workspace folder '" + root + "' does not exist or is not a folder.",
          ErrorFacts.of(ErrorParameter.WORKSPACE, root));
    }
    String lakehouse = conf.lakehouse(Optional.empty(), Optional.of(root.toString()));
    Path lakehousePath = CheckWeaverCommand.localPath(lakehouse).toAbsolutePath().normalize();
    WeaverWorkspace weaver =
        new WeaverWorkspace(session, root, lakehousePath.toString(), message -> {}).checkingOnce();
    List<String> items = call(statement, () -> weaver.model().items());
    for (String item : items) {
      if (conf.itemCatalog(item).isPresent()) {
        continue; // mapped to an existing catalog
      }
      try {
        ItemCatalogs.register(session, lakehousePath, item);
      } catch (IllegalStateException e) {
        throw SparkErrors.analysis(
            WeaverErrorClass.WEAVER_ITEM_CATALOG_CONFLICT,
            statement + ": " + e.getMessage(),
            ErrorFacts.of(ErrorParameter.ITEM, item));
      }
    }
    return weaver;
  }

  /**
   * Runs an engine call, turning Weaver's own refusals (unknown Table, unbuilt Table, a bad
   * argument: {@link WeaverArgumentException}) and Check errors into {@code AnalysisException}s
   * that name the statement and keep the error's class and facts. An argument check of Weaver's own
   * without a class of its own is {@code WEAVER_INVALID_REQUEST}; any other exception is not a
   * refusal of the request and surfaces as it is.
   */
  public static <T> T call(String statement, Supplier<T> body) {
    try {
      return body.get();
    } catch (WeaverCheckException e) {
      String findings =
          e.report().findings().stream()
              .filter(f -> f.severity().word().equals("error"))
              .limit(5)
              .map(f -> f.toText())
              .collect(Collectors.joining("\n  ", "\n  ", ""));
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_CHECK_FAILED,
          statement
              + ": Check found errors in the workspace; fix them first (CHECK WEAVER lists them):"
              + findings,
          e.facts());
    } catch (WeaverArgumentException e) {
      throw SparkErrors.analysis(e.errorClass(), statement + ": " + e.getMessage(), e.facts());
    } catch (IllegalArgumentException e) {
      if (!thrownByWeaver(e)) {
        throw e;
      }
      // An argument check of Weaver's own that has no class of its own yet is still a refusal of
      // the request; an IllegalArgumentException from Spark, Delta or the JDK is not, and
      // surfaces as it is.
      throw SparkErrors.analysis(
          WeaverErrorClass.WEAVER_INVALID_REQUEST, statement + ": " + e.getMessage());
    }
  }

  /** Whether Weaver's own code threw {@code e} (the frame that raised it is in io.weaver). */
  private static boolean thrownByWeaver(Throwable e) {
    StackTraceElement[] frames = e.getStackTrace();
    return frames.length > 0 && frames[0].getClassName().startsWith("io.weaver.");
  }

  /** The engine's scope for one Table identity of a statement. */
  static Scope scope(TableIdentity table) {
    return new Scope(
        Optional.empty(),
        Optional.of(
            new Identity(table.item(), new TableId(table.schema(), table.object()), false)));
  }

  /** The engine's scope for a statement's {@code ITEM i | TABLE id | (nothing)}. */
  static Scope scope(io.weaver.sql.plans.Scope scope) {
    if (scope.table().isPresent()) {
      return scope(scope.table().get());
    }
    return scope.item().map(Scope::item).orElse(Scope.all());
  }
}
