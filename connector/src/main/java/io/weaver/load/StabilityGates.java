package io.weaver.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The stability gates of a keyed load (docs/table-contract.md, "Load"), decided on the driver from
 * the counts.
 */
final class StabilityGates {
  private final LoadSpec spec;

  StabilityGates(LoadSpec spec) {
    this.spec = spec;
  }

  /** The refusal message when a gate trips, else empty. Ignores any waiver. */
  Optional<String> refusal(ChangeCounts counts) {
    long live = counts.liveBefore();
    if (!spec.keyed() || live == 0 || live < spec.stabilityRowThreshold()) {
      return Optional.empty();
    }
    List<String> tripped = new ArrayList<>();
    gate(counts.deleted(), live, spec.deletePercentageThreshold(), "deleted", "Delete")
        .ifPresent(tripped::add);
    gate(counts.updated(), live, spec.updatePercentageThreshold(), "updated", "Update")
        .ifPresent(tripped::add);
    if (tripped.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        spec.tableName() + ": " + String.join("; ", tripped) + ". Waive the gates to apply.");
  }

  private static Optional<String> gate(
      long rows, long live, int threshold, String verb, String name) {
    if (rows == 0 || threshold >= 100) {
      return Optional.empty();
    }
    // Compare exactly (100 * rows >= threshold * live), not through a rounded double.
    if (100L * rows < (long) threshold * live) {
      return Optional.empty();
    }
    double percent = 100.0 * rows / live;
    return Optional.of(
        String.format(
            Locale.ROOT,
            "%d of %d live rows (%.1f%%) would be %s; %s percentage threshold is %d",
            rows,
            live,
            percent,
            verb,
            name,
            threshold));
  }
}
