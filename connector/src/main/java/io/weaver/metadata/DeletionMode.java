package io.weaver.metadata;

import java.util.Locale;
import java.util.Optional;

/**
 * What a keyed load does with the keys it deletes (docs/table-contract.md, "Deletes"): the absent
 * keys of a snapshot load and the delete keys of an incremental one.
 */
public enum DeletionMode {
  /** The row stays with its delete time set; reads by name hide it; it can be revived. */
  SOFT,
  /**
   * The row is removed: from the Delta table (deletion vectors where the table has them), or by the
   * Warehouse load procedure's {@code DELETE}.
   */
  HARD,
  /**
   * Absent keys are left as they are (a merge that never deletes by absence); delete keys still
   * soft-delete.
   */
  KEEP;

  /** The word a header writes. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<DeletionMode> of(String word) {
    for (DeletionMode mode : values()) {
      if (mode.word().equals(word)) {
        return Optional.of(mode);
      }
    }
    return Optional.empty();
  }
}
