package io.weaver.load;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.spec.GateVerdict;
import io.weaver.load.spec.LoadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The stability gates of a keyed load (docs/table-contract.md, "Load"), decided on the driver from
 * the counts: each gate's measurement ({@link #verdicts}) and the refusal message built from them.
 */
final class StabilityGates {
  private final LoadSpec spec;

  StabilityGates(LoadSpec spec) {
    this.spec = spec;
  }

  /**
   * Each gate (delete, then update) measured against {@code counts}; {@code waived} turns a refusal
   * into {@code waived}. An unkeyed Table has no gates.
   */
  List<GateVerdict> verdicts(ChangeCounts counts, boolean waived) {
    if (!spec.keyed()) {
      return List.of();
    }
    long live = counts.liveBefore();
    // Below the stability row threshold (or on an empty target) neither gate applies.
    boolean applies = live > 0 && live >= spec.stabilityRowThreshold();
    return List.of(
        verdict(
            "delete", counts.deleted(), live, spec.deletePercentageThreshold(), applies, waived),
        verdict(
            "update", counts.updated(), live, spec.updatePercentageThreshold(), applies, waived));
  }

  private static GateVerdict verdict(
      String gate, long rows, long live, int threshold, boolean applies, boolean waived) {
    double percent = live == 0 ? 0 : 100.0 * rows / live;
    String verdict;
    if (!applies || threshold >= 100) {
      verdict = GateVerdict.OFF;
    } else if (rows == 0 || 100L * rows < (long) threshold * live) {
      // Compared exactly (100 * rows >= threshold * live), not through a rounded double.
      verdict = GateVerdict.PASS;
    } else {
      verdict = waived ? GateVerdict.WAIVED : GateVerdict.REFUSE;
    }
    return new GateVerdict(gate, rows, live, threshold, percent, verdict);
  }

  /** The refusal message when a gate trips, else empty. Ignores any waiver. */
  Optional<String> refusal(ChangeCounts counts) {
    List<String> tripped = new ArrayList<>();
    for (GateVerdict v : verdicts(counts, false)) {
      if (v.refuses()) {
        tripped.add(
            String.format(
                Locale.ROOT,
                "%d of %d live rows (%.1f%%) would be %s; %s percentage threshold is %d",
                v.rows(),
                v.liveRows(),
                v.percent(),
                v.gate().equals("delete") ? "deleted" : "updated",
                v.gate().equals("delete") ? "Delete" : "Update",
                v.threshold()));
      }
    }
    if (tripped.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        spec.tableName() + ": " + String.join("; ", tripped) + ". Waive the gates to apply.");
  }
}
