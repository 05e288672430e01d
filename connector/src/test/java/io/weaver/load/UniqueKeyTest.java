package io.weaver.load;

import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.records.LoadOutcome;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unique keys are checked in declaration order over the rows that would be live. */
class UniqueKeyTest {
  @TempDir Path dir;

  @Test
  void incomingRowsHoldingALiveValueAreRejectedAndReturned() {
    LoadSpec base = TestTable.keyedSpec(dir, true);
    TestTable table =
        new TestTable(
            base.toBuilder().uniqueKeys(List.of(List.of("name"), List.of("weight"))).build());
    assertEquals(2, table.load(table.rows(row(1, "a", 10), row(2, "b", 20)), T1).rowsInserted());

    LoadOutcome outcome =
        table.load(
            table.rows(
                row(3, "a", 30), // name held by live row 1 -> unique-key:1
                row(4, "z", 40), // z twice among incoming rows -> both unique-key:1
                row(5, "z", 50),
                row(6, "q", 20), // weight held by live row 2 -> unique-key:2
                row(7, null, 70), // null unique value never collides
                row(2, "B", 20)), // plain update; keeps weight 20 live
            T2);
    assertEquals(LoadStatus.SUCCEEDED, outcome.status(), outcome.message());
    assertEquals(4, outcome.rowsRejected());
    assertEquals(1, outcome.rowsInserted());
    assertEquals(1, outcome.rowsUpdated());
    Map<String, String> reasons = new TreeMap<>();
    for (Row r : outcome.rejections().orElseThrow().collectAsList()) {
      reasons.put(r.getString(1), r.getString(0));
      assertTrue(r.getString(2).startsWith("{\"id\":"), r.getString(2));
    }
    assertEquals(
        Map.of(
            "{\"id\":3}", "unique-key:1",
            "{\"id\":4}", "unique-key:1",
            "{\"id\":5}", "unique-key:1",
            "{\"id\":6}", "unique-key:2"),
        reasons);
    assertEquals(List.of(1, 2, 7), List.copyOf(table.byId().keySet()));
    // An incoming row's value freed by an update in the same load is not a collision.
    LoadOutcome freed = table.load(table.rows(row(2, "B", 22), row(8, "r", 20)), TestTable.T3);
    assertEquals(0, freed.rowsRejected(), freed.message());
    assertEquals(1, freed.rowsInserted());
    assertEquals("B", table.byId().get(2).getString(1));
  }
}
