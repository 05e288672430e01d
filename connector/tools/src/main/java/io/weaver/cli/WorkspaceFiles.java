package io.weaver.cli;

import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.workspace.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The file areas a workspace brings to a new embedded lakehouse. A workspace may hold {@code
 * Lakehouse/<Item>/Files/} (sample or test landing files, as the bundled example does); when the
 * lakehouse folder has no {@code <Item>/Files} yet, the CLI copies it there once, so a fresh
 * lakehouse starts with the files its Tables read. An existing file area is never touched: new
 * deliveries are the user's to drop in.
 */
final class WorkspaceFiles {
  private WorkspaceFiles() {}

  /**
   * Copies each item's workspace file area into a lakehouse that has none for that item, telling
   * {@code note} (the command's progress, silent with {@code --quiet}) of each copy.
   */
  static void seed(
      Path workspace, Path lakehouse, Collection<String> items, Consumer<String> note) {
    LakehouseLayout layout = LakehouseLayout.at(lakehouse.toString());
    for (String item : items) {
      Path from =
          workspace.resolve(Target.LAKEHOUSE.folder()).resolve(item).resolve(LakehouseLayout.FILES);
      Path to = Path.of(layout.itemFilesRoot(item));
      if (!Files.isDirectory(from) || Files.exists(to)) {
        continue;
      }
      Path partial = to.resolveSibling(LakehouseLayout.FILES + ".copying");
      try {
        deleteTree(partial);
        copyTree(from, partial);
        // Whole or not at all: a run stopped mid-copy leaves no half file area behind.
        Files.move(partial, to, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Item " + item + ": cannot copy the workspace's " + from + " to " + to, e);
      }
      note.accept(item + ": copied the workspace's Files/ into the new lakehouse");
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(from)) {
      paths = walk.toList();
    }
    for (Path source : paths) {
      Path target = to.resolve(from.relativize(source).toString());
      if (Files.isDirectory(source)) {
        Files.createDirectories(target);
      } else if (Files.isRegularFile(source)) {
        Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    List<Path> paths;
    try (Stream<Path> walk = Files.walk(root)) {
      paths = walk.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path p : paths) {
      Files.delete(p);
    }
  }
}
