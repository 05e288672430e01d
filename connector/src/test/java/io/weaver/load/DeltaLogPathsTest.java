package io.weaver.load;

import static io.weaver.load.TestTable.T1;
import static io.weaver.load.TestTable.T2;
import static io.weaver.load.TestTable.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weaver.catalyst.delta.DeltaInternals;
import io.weaver.catalyst.delta.DeltaLogs;
import io.weaver.load.records.DeltaLogProbe;
import io.weaver.load.records.LoadOutcome;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadStatus;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Delta adapter's two ways of reading a target's log (docs/environments.md, "Delta's public
 * surface") agree on a real table: version, table id, the last applied load sequence (Delta's
 * transaction id on the internal path, the newest receipt on the portable one) and each commit's
 * receipt; and a load run on the portable path commits, and recognises a replayed sequence.
 */
class DeltaLogPathsTest {
  @TempDir Path dir;

  @Test
  void internalAndPortableReadsOfTheLogAgree() {
    assertTrue(DeltaInternals.present(), "open-source Delta's classes are on the test classpath");
    TestTable table = new TestTable(TestTable.keyedSpec(dir, false));
    assertEquals(LoadStatus.SUCCEEDED, table.load(table.rows(row(1, "a", 10)), T1).status());
    assertEquals(
        LoadStatus.SUCCEEDED,
        table.load(table.rows(row(1, "a", 11), row(2, "b", 20)), T2).status());
    SparkSession spark = SparkTestSession.get();
    String path = table.spec.targetPath();
    String appId = LoadRequest.txnAppId(table.spec.tableName());

    DeltaLogs.TableLog internal = DeltaLogs.internal(spark, path).orElseThrow();
    DeltaLogs.TableLog portable = DeltaLogs.portable(spark, path).orElseThrow();
    assertEquals(table.version(), internal.version());
    assertEquals(internal.version(), portable.version());
    assertEquals(internal.tableId(), portable.tableId());
    assertEquals(2L, internal.txnVersion(appId).orElseThrow(), "two loads, sequences 1 and 2");
    assertFalse(portable.txnVersion(appId).isPresent(), "no public read of transaction ids");
    for (long v = 0; v <= internal.version(); v++) {
      assertEquals(
          DeltaLogs.userMetadataAt(spark, path, v),
          DeltaLogs.portableUserMetadataAt(spark, path, v),
          "userMetadata of version " + v);
    }
    assertTrue(DeltaLogs.userMetadataAt(spark, path, 99).isEmpty(), "a version not in the log");

    String before = System.getProperty(DeltaInternals.LOADS_PROPERTY);
    System.setProperty(DeltaInternals.LOADS_PROPERTY, "portable");
    try {
      assertFalse(DeltaInternals.forLoads(), "loads take the portable path");
      assertEquals(2L, DeltaLogProbe.latest(spark, "t", path).lastTxnVersion(appId));
      LoadOutcome third = table.load(table.rows(row(2, "b", 21)), T2);
      assertEquals(LoadStatus.SUCCEEDED, third.status(), third.message());
      assertEquals(2, third.rowsUpdated() + third.rowsDeleted(), third.toString());
      assertEquals(3L, DeltaLogProbe.latest(spark, "t", path).lastTxnVersion(appId));
      // A replay of sequence 3 is recognised on the portable path too.
      LoadRequest replay = table.request(table.rows(row(9, "z", 9)), T2);
      LoadRequest same =
          new LoadRequest(
              replay.spec(),
              replay.staging(),
              replay.deleteKeys(),
              replay.loadTimestamp(),
              replay.loadId(),
              3,
              false,
              replay.commitMetadata());
      LoadOutcome again = LoadEngine.apply(spark, same, FaultPoints.installed());
      assertTrue(again.message().contains("already applied"), again.message());
      assertEquals(third.deltaVersion(), again.deltaVersion(), "nothing committed");
    } finally {
      if (before == null) {
        System.clearProperty(DeltaInternals.LOADS_PROPERTY);
      } else {
        System.setProperty(DeltaInternals.LOADS_PROPERTY, before);
      }
    }
  }
}
