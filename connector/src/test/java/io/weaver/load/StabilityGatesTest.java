package io.weaver.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.spec.LoadSpec;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The gate arithmetic (docs/table-contract.md, "Load"); the engine-level refusal is in {@link
 * GatedLoadTest}.
 */
class StabilityGatesTest {
  private static StabilityGates gates(int deleteThreshold, int updateThreshold, long rowThreshold) {
    return new StabilityGates(
        LoadSpec.builder("Logistics.Parcel.Current", "/unused", new StructType().add("id", "int"))
            .primaryKey(List.of("id"))
            .deletePercentageThreshold(deleteThreshold)
            .updatePercentageThreshold(updateThreshold)
            .stabilityRowThreshold(rowThreshold)
            .build());
  }

  private static ChangeCounts counts(long updated, long deleted, long liveBefore) {
    return ChangeCounts.builder().updated(updated).deleted(deleted).liveBefore(liveBefore).build();
  }

  @Test
  void deleteGateIsInclusiveAtTheThreshold() {
    StabilityGates gates = gates(30, 100, 0);
    assertFalse(gates.refusal(counts(0, 2, 10)).isPresent(), "20% < 30%");
    assertEquals(
        Optional.of(
            "Logistics.Parcel.Current: 3 of 10 live rows (30.0%) would be deleted; Delete"
                + " percentage threshold is 30. Waive the gates to apply."),
        gates.refusal(counts(0, 3, 10)),
        "exactly at the threshold refuses");
    assertEquals(
        Optional.of(
            "Logistics.Parcel.Current: 4 of 10 live rows (40.0%) would be deleted; Delete"
                + " percentage threshold is 30. Waive the gates to apply."),
        gates.refusal(counts(0, 4, 10)));
  }

  @Test
  void updateGateIsInclusiveAtTheThresholdAndBothAreReported() {
    StabilityGates gates = gates(10, 50, 0);
    assertFalse(gates.refusal(counts(49, 0, 100)).isPresent());
    assertTrue(gates.refusal(counts(50, 0, 100)).isPresent());
    String both = gates.refusal(counts(60, 10, 100)).orElseThrow();
    assertTrue(
        both.contains(
            "10 of 100 live rows (10.0%) would be deleted; Delete percentage threshold is 10"),
        both);
    assertTrue(
        both.contains(
            "60 of 100 live rows (60.0%) would be updated; Update percentage threshold is 50"),
        both);
  }

  @Test
  void thresholdZeroRefusesAnyChangeAndHundredDisables() {
    assertTrue(gates(0, 100, 0).refusal(counts(0, 1, 1000)).isPresent());
    assertTrue(gates(100, 0, 0).refusal(counts(1, 0, 1000)).isPresent());
    assertFalse(gates(0, 100, 0).refusal(counts(0, 0, 1000)).isPresent(), "nothing deleted");
    assertFalse(gates(100, 100, 0).refusal(counts(1000, 1000, 1000)).isPresent());
  }

  @Test
  void smallOrEmptyTargetsAreNotGated() {
    assertFalse(gates(10, 10, 50).refusal(counts(40, 40, 49)).isPresent(), "below row threshold");
    assertTrue(gates(10, 10, 50).refusal(counts(40, 40, 50)).isPresent(), "at row threshold");
    assertFalse(gates(0, 0, 0).refusal(counts(0, 0, 0)).isPresent(), "empty target");
  }

  @Test
  void percentagesAreComparedExactly() {
    // 1 of 3 is 33.33...%: a threshold of 33 refuses, 34 does not.
    assertTrue(gates(33, 100, 0).refusal(counts(0, 1, 3)).isPresent());
    assertFalse(gates(34, 100, 0).refusal(counts(0, 1, 3)).isPresent());
  }
}
