package io.weaver.sql.session;

import io.weaver.lakehouse.ItemCatalogs;
import io.weaver.session.WeaverConf;
import io.weaver.sql.commands.CheckWeaverCommand;
import io.weaver.workspace.SourceFile;
import io.weaver.workspace.Target;
import io.weaver.workspace.WorkspaceScanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.WeakHashMap;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the lakehouse items of a session's workspace ({@value WeaverConf#WORKSPACE}) its catalogs
 * before the session's first statement is resolved, whatever that statement is: a plain {@code
 * SELECT … FROM Item.Schema.Object}, {@code spark.table(…)} or a Spark Connect read
 * (docs/table-contract.md, "Where tables live").
 *
 * <p>Spark resolves {@code Shop.Sales.Customer} against the catalogs registered when the name is
 * resolved; an item registered only by the first Weaver statement left every earlier read by name
 * to {@code spark_catalog}, which refuses a two-part namespace. Weaver's parser calls {@link
 * #ensure} before it parses anything, and every read by name is parsed first (SQL text, and the
 * identifier of {@code spark.table}). The item folders are listed once per session and workspace
 * (no Check: a declaration error is reported by the Weaver statements, not by every query); a
 * session whose workspace setting changes gets the new workspace's items at its next statement.
 */
public final class SessionItems {
  private static final Logger LOG = LoggerFactory.getLogger(SessionItems.class);

  /** Per session, the workspace and lakehouse whose items are registered. */
  private static final Map<SparkSession, String> REGISTERED =
      Collections.synchronizedMap(new WeakHashMap<>());

  private SessionItems() {}

  /** Registers the items of {@code session}'s workspace as its catalogs, once per workspace. */
  public static void ensure(SparkSession session) {
    Optional<String> workspace =
        Optional.ofNullable(session.conf().get(WeaverConf.WORKSPACE, null))
            .filter(s -> !s.isBlank());
    if (workspace.isEmpty()) {
      return;
    }
    // Two conf reads per statement; the rest only when the workspace or lakehouse changed.
    String key = workspace.get() + "\u0000" + session.conf().get(WeaverConf.LAKEHOUSE, "");
    if (key.equals(REGISTERED.get(session))) {
      return;
    }
    WeaverConf conf = WeaverConf.of(session);
    String lakehouse;
    try {
      lakehouse = conf.lakehouse(Optional.empty(), workspace);
    } catch (RuntimeException e) {
      return; // an unreadable setting: the Weaver statements report it
    }
    Path root;
    Path lakehouseRoot;
    try {
      root = CheckWeaverCommand.localPath(workspace.get());
      lakehouseRoot = CheckWeaverCommand.localPath(lakehouse).toAbsolutePath().normalize();
    } catch (RuntimeException e) {
      return; // not a local folder: the Weaver statements say so
    }
    if (!Files.isDirectory(root)) {
      return; // the Weaver statements say the folder is missing
    }
    TreeSet<String> items = new TreeSet<>();
    for (SourceFile file : WorkspaceScanner.scan(root).files()) {
      if (file.target() == Target.LAKEHOUSE) {
        items.add(file.item());
      }
    }
    for (String item : items) {
      if (conf.itemCatalog(item).isPresent()) {
        continue; // mapped to an existing catalog
      }
      try {
        ItemCatalogs.register(session, lakehouseRoot, item);
      } catch (RuntimeException e) {
        // Another catalog of that name: reads by that name are its reads; the Weaver statements
        // refuse the workspace with this message.
        LOG.warn("item {} is not registered as a catalog: {}", item, e.getMessage());
      }
    }
    REGISTERED.put(session, key);
  }
}
