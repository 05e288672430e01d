package io.weaver.load;

import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.records.CommitReceipt;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stability gates through the engine: a refusal writes nothing, a waiver applies and warns. */
class GatedLoadTest {
  @TempDir Path dir;

  @Test
  void refusedThenWaived() {
    LoadSpec base = TestTable.keyedSpec(dir, false);
    LoadSpec spec = base.toBuilder().deletePercentageThreshold(30).stabilityRowThreshold(5).build();
    TestTable table = new TestTable(spec);
    List<Object[]> ten = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      ten.add(row(i, "n" + i, i));
    }
    assertEquals(10, table.load(table.rows(ten.toArray(new Object[0][])), T1).rowsInserted());
    long history = table.historySize();

    Dataset<Row> sixLeft = table.rows(ten.subList(0, 6).toArray(new Object[0][]));
    LoadOutcome refused = table.load(sixLeft, T2);
    assertEquals(LoadStatus.REFUSED, refused.status());
    assertEquals(
        "Logistics.Parcel.Current: 4 of 10 live rows (40.0%) would be deleted; Delete percentage"
            + " threshold is 30. Waive the gates to apply.",
        refused.message());
    assertFalse(refused.committed());
    assertEquals(0, refused.rowsDeleted());
    assertEquals(10, refused.targetLiveRowsBefore());
    assertEquals(history, table.historySize(), "a refused load writes nothing");

    LoadRequest waived = table.request(sixLeft, T2);
    LoadOutcome applied =
        LoadEngine.apply(
            table.spark,
            new LoadRequest(
                spec,
                sixLeft,
                Optional.empty(),
                T2,
                waived.loadId(),
                waived.loadSequence(),
                true,
                waived.commitMetadata()),
            FaultPoints.installed());
    assertEquals(LoadStatus.SUCCEEDED, applied.status(), applied.message());
    assertEquals(4, applied.rowsDeleted());
    assertEquals(6, applied.targetLiveRowsAfter());
    assertTrue(
        applied.warnings().stream().anyMatch(w -> w.contains("stability gates waived")),
        applied.warnings().toString());
    assertEquals(history + 1, table.historySize());
    String metadata = table.lastCommit().getString(table.lastCommit().fieldIndex("userMetadata"));
    // The commit carries the request's receipt, with the load's counts added.
    CommitReceipt written = CommitReceipt.parse(metadata).orElseThrow();
    CommitReceipt asked = CommitReceipt.parse(waived.commitMetadata()).orElseThrow();
    assertEquals(asked.withCounts(written.counts().orElseThrow(), List.of()), written);
    assertEquals(4, written.counts().get().deleted());
    assertEquals(6, written.counts().get().liveAfter());
  }
}
