package io.weaver.load;

import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadStatus;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Identity values come from Delta and survive updates; a replayed load sequence is a no-op. */
class IdentityAndReplayTest {
  @TempDir Path dir;

  @Test
  void identityIsGeneratedAndKeptAcrossUpdates() {
    TestTable table = new TestTable(TestTable.keyedSpecWithIdentity(dir));
    LoadOutcome first = table.load(table.rows(row(1, "a", 10), row(2, "b", 20)), T1);
    assertEquals(LoadStatus.SUCCEEDED, first.status(), first.message());
    Map<Integer, Row> before = table.byId();
    Set<Long> ids = new HashSet<>();
    before.values().forEach(r -> ids.add(r.getLong(r.fieldIndex("sk"))));
    assertEquals(2, ids.size(), "distinct, not null");

    LoadOutcome second =
        table.load(table.rows(row(1, "a", 10), row(2, "B", 20), row(3, "c", 30)), T2);
    assertEquals(LoadStatus.SUCCEEDED, second.status(), second.message());
    Map<Integer, Row> after = table.byId();
    assertEquals(before.get(2).getLong(0), after.get(2).getLong(after.get(2).fieldIndex("sk")));
    assertEquals("B", after.get(2).getString(after.get(2).fieldIndex("name")));
    assertFalse(ids.contains(after.get(3).getLong(after.get(3).fieldIndex("sk"))));
  }

  @Test
  void replayingALoadSequenceIsANoOpThatSaysSo() {
    TestTable table = new TestTable(TestTable.keyedSpec(dir, false));
    LoadRequest request = table.request(table.rows(row(1, "a", 10)), T1);
    LoadOutcome first = LoadEngine.apply(table.spark, request, FaultPoints.installed());
    assertTrue(first.committed(), first.message());
    long version = table.version();

    // Same sequence with different rows: must not apply.
    LoadRequest replay =
        new LoadRequest(
            request.spec(),
            table.rows(row(1, "changed", 11)),
            Optional.empty(),
            T2,
            request.loadId(),
            request.loadSequence(),
            false,
            request.commitMetadata());
    LoadOutcome again = LoadEngine.apply(table.spark, replay, FaultPoints.installed());
    assertEquals(LoadStatus.SUCCEEDED, again.status());
    assertFalse(again.committed());
    assertTrue(again.message().contains("already applied"), again.message());
    assertEquals(version, again.deltaVersion());
    assertEquals(version, table.version());
    assertEquals("a", table.byId().get(1).getString(1));
  }
}
