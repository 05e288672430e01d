package io.weaver.load;

import static io.weaver.load.TestTable.LIVE;
import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.row;
import static io.weaver.load.TestTable.time;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.load.records.LoadOutcome;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.LoadStatus;
import io.weaver.metadata.ManagedColumns;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An unkeyed Table is replaced wholesale in one commit; Delta generates its identity. */
class UnkeyedLoadTest {
  @TempDir Path dir;

  @Test
  void replacesEverythingInOneCommitWithGeneratedIdentity() {
    TestTable table =
        new TestTable(
            LoadSpec.builder(TestTable.NAME, dir.resolve("Unkeyed").toString(), TestTable.SCHEMA)
                .notNull(List.of("id"))
                .identityColumn(Optional.of("sk"))
                .deletePercentageThreshold(0)
                .updatePercentageThreshold(0)
                .build());
    LoadOutcome first =
        table.load(table.rows(row(1, "a", 10), row(2, "b", 20), row(3, "c", 30)), T1);
    assertEquals(LoadStatus.SUCCEEDED, first.status(), first.message());
    assertEquals(3, first.rowsInserted());
    long version = table.version();

    LoadOutcome second = table.load(table.rows(row(4, "d", 40), row(5, "e", 50)), T2);
    assertEquals(LoadStatus.SUCCEEDED, second.status(), second.message());
    assertEquals(2, second.rowsInserted());
    assertEquals(3, second.rowsDeleted());
    assertEquals(3, second.targetLiveRowsBefore());
    assertEquals(2, second.targetLiveRowsAfter());
    assertEquals(version + 1, second.deltaVersion(), "one commit");
    assertEquals(version + 1, table.version());
    Map<Integer, Row> rows = table.byId();
    assertEquals(List.of(4, 5), List.copyOf(rows.keySet()));
    for (Row r : rows.values()) {
      assertNotNull(r.get(r.fieldIndex("sk")));
      assertEquals(T2, time(r, ManagedColumns.INSERT_TIME));
      assertEquals(T2, time(r, ManagedColumns.UPDATE_TIME));
      assertEquals(LIVE, time(r, ManagedColumns.DELETE_TIME));
    }
    assertTrue(
        table.lastCommit().getString(table.lastCommit().fieldIndex("operation")).contains("WRITE"));
  }
}
