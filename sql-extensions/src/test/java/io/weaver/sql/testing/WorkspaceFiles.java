package io.weaver.sql.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes declaration files into a workspace folder for this module's tests. */
public final class WorkspaceFiles {
  private WorkspaceFiles() {}

  /** Any file, by its path relative to the workspace root. */
  public static void write(Path workspace, String relative, String content) throws IOException {
    Path file = workspace.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  /**
   * A Spark SQL Table {@code Lakehouse/<item>/Tables/<id>.sql}: {@code Table ID: <id>}, {@code
   * Description: Test table.}, then {@code header}, and {@code body}.
   */
  public static void sqlTable(Path workspace, String item, String id, String header, String body)
      throws IOException {
    write(
        workspace,
        "Lakehouse/" + item + "/Tables/" + id + ".sql",
        "/*\nTable ID: " + id + "\nDescription: Test table.\n" + header + "*/\n" + body);
  }
}
