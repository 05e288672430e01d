package io.weaver.embedded;

import io.weaver.session.Evaluation;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Whether a lakehouse is small enough for the CLI's session to start interpreted ({@link
 * Evaluation}): its files, the metastore's aside, hold at most {@link Evaluation#SMALL_BYTES}.
 */
final class SmallLakehouse {
  /**
   * At most this many files are looked at; more means a lakehouse that is not small, whatever their
   * size, and bounds the walk's own cost.
   */
  static final int LIMIT_FILES = 20_000;

  private SmallLakehouse() {}

  /**
   * Whether the files under {@code root}, except the metastore's folder (Derby's files, which are
   * no data of a query), hold at most {@link Evaluation#SMALL_BYTES} in at most {@link
   * #LIMIT_FILES} files. A root that does not exist yet is small; one that cannot be walked is not.
   */
  static boolean isSmall(Path root) {
    if (!Files.isDirectory(root)) {
      return !Files.exists(root);
    }
    Path metastore = root.resolve(EmbeddedMetastore.DIR);
    long[] seen = new long[2]; // bytes, files
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              return dir.equals(metastore)
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              seen[0] += attrs.size();
              seen[1]++;
              return seen[0] > Evaluation.SMALL_BYTES || seen[1] > LIMIT_FILES
                  ? FileVisitResult.TERMINATE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE; // gone while walking, or unreadable: not counted
            }
          });
    } catch (IOException e) {
      return false; // cannot be sized: Spark's defaults
    }
    return seen[0] <= Evaluation.SMALL_BYTES && seen[1] <= LIMIT_FILES;
  }
}
