package io.weaver.load.spec;

import io.weaver.catalyst.compat.WeaverErrorClass;
import java.util.Locale;
import java.util.Optional;

/**
 * How a load ended, as {@code _.LoadHistory}'s {@code status} column and every interface report it
 * (the lower-case word: {@link #text()}, also {@link #toString()}).
 */
public enum LoadStatus {
  /** Rows were written (or nothing needed to be, and the counts say so). */
  SUCCEEDED,
  /** The body returned no work (an incremental Table with nothing new). */
  NO_WORK,
  /** A stability gate refused the load before anything was written. */
  REFUSED,
  /** Nothing was written; the message says why and what to do. */
  FAILED,
  /** Not attempted: a dependency stopped, or the Table cannot be loaded here. */
  SKIPPED,
  /** An earlier load's commit landed without history; recorded from its receipt. */
  RECOVERED,
  /** A restore of the table to an earlier load (RESTORE WEAVER TABLE), not a load. */
  RESTORED;

  /** The word stored in {@code _.LoadHistory}. */
  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return text();
  }

  /**
   * The status a history row names.
   *
   * @throws IllegalArgumentException when {@code text} is no load status
   */
  public static LoadStatus of(String text) {
    return valueOf(text.toUpperCase(Locale.ROOT));
  }

  /** A failed, refused or skipped load stops its dependants. */
  public boolean stopsDependants() {
    return this == FAILED || this == REFUSED || this == SKIPPED;
  }

  /** A load the command line reports as a failure (exit code 1). */
  public boolean isFailure() {
    return this == FAILED || this == REFUSED;
  }

  /** The load's data is in the table (its state moves on). */
  public boolean applied() {
    return this == SUCCEEDED || this == NO_WORK || this == RECOVERED;
  }

  /**
   * The error class of a load that ended this way without its data in the table: {@code
   * WEAVER_LOAD_REFUSED}, {@code WEAVER_LOAD_SKIPPED} or {@code WEAVER_LOAD_FAILED}; none for the
   * others.
   */
  public Optional<WeaverErrorClass> errorClass() {
    return switch (this) {
      case FAILED -> Optional.of(WeaverErrorClass.WEAVER_LOAD_FAILED);
      case REFUSED -> Optional.of(WeaverErrorClass.WEAVER_LOAD_REFUSED);
      case SKIPPED -> Optional.of(WeaverErrorClass.WEAVER_LOAD_SKIPPED);
      default -> Optional.empty();
    };
  }
}
