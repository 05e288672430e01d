package io.weaver.cli;

import io.weaver.session.WeaverConf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells {@code bin/weaver} that this call started Spark, so that the class-data archive the JVM
 * writes at its exit holds Spark's classes and is worth keeping (docs/decisions.md, "Command
 * line"). Without the mark, an archive of a call that ended before Spark (a usage error, {@code
 * --help}, a Check that found errors) would be kept with a small part of the classes and used by
 * every later call of the same jar instead of a full one.
 */
final class ClassArchiveMark {
  /** The file to create, set by {@code bin/weaver} only when the JVM writes an archive. */
  static final String PROPERTY = WeaverConf.CLASS_ARCHIVE_MARK_PROPERTY;

  private ClassArchiveMark() {}

  /** Creates the mark when {@code bin/weaver} asked for one; a mark it cannot write is no mark. */
  static void sparkStarted() {
    String mark = System.getProperty(PROPERTY, "");
    if (mark.isBlank()) {
      return;
    }
    try {
      Files.write(Path.of(mark), new byte[0]);
    } catch (IOException | RuntimeException e) {
      // The archive is then dropped and the next call writes one: only speed is at stake.
    }
  }
}
