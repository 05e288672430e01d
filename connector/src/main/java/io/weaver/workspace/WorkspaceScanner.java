package io.weaver.workspace;

import io.weaver.findings.Finding;
import io.weaver.findings.RuleIds;
import io.weaver.findings.Severity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Discovers declarations by the layout only (docs/table-contract.md, "Workspace layout"). Hidden
 * entries (leading {@code .}) are ignored, and so are {@code __init__.py} and {@code __pycache__},
 * which Python tooling puts next to Table modules. Other files are ignored; an item folder whose
 * name is not an identifier is a finding, never silently skipped.
 */
public final class WorkspaceScanner {

  /** The discovered files and the findings about the layout itself. */
  public record Scan(List<SourceFile> files, List<Finding> findings) {}

  private final Path root;
  private final List<SourceFile> files = new ArrayList<>();
  private final List<Finding> findings = new ArrayList<>();

  private WorkspaceScanner(Path root) {
    this.root = root;
  }

  /** Scans a workspace root; the root must be an existing directory. */
  public static Scan scan(Path root) {
    if (!Files.isDirectory(root)) {
      throw new IllegalArgumentException("workspace " + root + " is not a directory");
    }
    WorkspaceScanner scanner = new WorkspaceScanner(root.toAbsolutePath().normalize());
    scanner.scanTarget(Target.LAKEHOUSE);
    scanner.scanTarget(Target.WAREHOUSE);
    scanner.files.sort(Comparator.comparing(SourceFile::relativePath));
    return new Scan(List.copyOf(scanner.files), List.copyOf(scanner.findings));
  }

  private void scanTarget(Target target) {
    Path base = root.resolve(target.folder());
    for (Path itemDir : children(base)) {
      if (!Files.isDirectory(itemDir)) {
        continue;
      }
      String item = itemDir.getFileName().toString();
      if (!Identifiers.isIdentifier(item)) {
        findings.add(
            new Finding(
                relative(itemDir),
                0,
                0,
                Severity.ERROR,
                RuleIds.ID_MISMATCH,
                "item folder '"
                    + item
                    + "' is not an identifier (a letter or _, then letters, digits or _);"
                    + " rename the folder"));
        continue;
      }
      if (target == Target.LAKEHOUSE) {
        scanFolder(itemDir.resolve("Tables"), target, item, SourceFile.Kind.TABLE);
        scanFolder(itemDir.resolve("Tests"), target, item, SourceFile.Kind.TEST);
      } else {
        scanFolder(itemDir, target, item, SourceFile.Kind.TABLE);
      }
    }
  }

  private void scanFolder(Path dir, Target target, String item, SourceFile.Kind kind) {
    for (Path file : children(dir)) {
      String name = file.getFileName().toString();
      if (!Files.isRegularFile(file) || name.equals("__init__.py")) {
        continue;
      }
      Form form = formOf(name, target, kind);
      if (form != null) {
        String stem = name.substring(0, name.lastIndexOf('.'));
        files.add(new SourceFile(file, relative(file), target, item, kind, form, stem));
      }
    }
  }

  private static Form formOf(String name, Target target, SourceFile.Kind kind) {
    if (name.endsWith(".sql")) {
      return target == Target.WAREHOUSE ? Form.TSQL : Form.SPARK_SQL;
    }
    if (name.endsWith(".py") && target == Target.LAKEHOUSE && kind == SourceFile.Kind.TABLE) {
      return Form.PYTHON;
    }
    return null;
  }

  private List<Path> children(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(p -> !p.getFileName().toString().equals("__pycache__"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  private String relative(Path path) {
    return root.relativize(path).toString().replace('\\', '/');
  }
}
