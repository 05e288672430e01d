package io.weaver.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes declaration files into a workspace folder: the one place tests create {@code
 * Lakehouse/<item>/Tables/...} and {@code Warehouse/<item>/...} files.
 */
public final class WorkspaceFiles {
  private final Path root;

  public WorkspaceFiles(Path root) {
    this.root = root;
  }

  public Path root() {
    return root;
  }

  /** The header of a declaration: {@code Table ID}, {@code Description}, then {@code more}. */
  public static String header(String id, String description, String more) {
    return "Table ID: " + id + "\nDescription: " + description + "\n" + more;
  }

  /** A Spark SQL Table {@code Lakehouse/<item>/Tables/<id>.sql} with a header and a body. */
  public WorkspaceFiles sql(String item, String id, String header, String body) {
    return write("Lakehouse/" + item + "/Tables/" + id + ".sql", "/*\n" + header + "*/\n" + body);
  }

  /** A T-SQL Table {@code Warehouse/<item>/<id>.sql}. */
  public WorkspaceFiles tsql(String item, String id, String header, String body) {
    return write("Warehouse/" + item + "/" + id + ".sql", "/*\n" + header + "*/\n" + body);
  }

  /** A Python Table {@code Lakehouse/<item>/Tables/<A__B>.py}: a docstring header, then code. */
  public WorkspaceFiles py(String item, String id, String header, String code) {
    String name = id.replace(".", "__");
    return write(
        "Lakehouse/" + item + "/Tables/" + name + ".py", "\"\"\"\n" + header + "\"\"\"\n" + code);
  }

  /** Any file, by its path relative to the workspace root. */
  public WorkspaceFiles write(String relative, String content) {
    return writeBytes(relative, content.getBytes(StandardCharsets.UTF_8));
  }

  public WorkspaceFiles writeBytes(String relative, byte[] content) {
    try {
      Path file = root.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.write(file, content);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
