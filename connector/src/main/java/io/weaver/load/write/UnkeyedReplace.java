package io.weaver.load.write;

import io.weaver.load.diff.ChangeCounts;
import io.weaver.load.expectations.ExpectationCount;
import io.weaver.load.records.CommitReceipt;
import io.weaver.load.records.LoadRequest;
import io.weaver.load.spec.LoadSpec;
import io.weaver.load.spec.ManagedValues;
import io.weaver.metadata.ManagedColumns;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * An unkeyed load (docs/table-contract.md, "Load"): the target is replaced wholesale in one
 * overwrite commit. Every row carries the load timestamp as insert and update time and the live
 * sentinel; the identity column is left out so Delta generates it.
 */
public final class UnkeyedReplace {
  private final LoadSpec spec;

  UnkeyedReplace(LoadSpec spec) {
    this.spec = spec;
  }

  /** Replaces the rows by {@code typed}; the commit's receipt carries {@code counts}. */
  void run(
      Dataset<Row> typed,
      LoadRequest request,
      ChangeCounts counts,
      List<ExpectationCount> expectations) {
    Column loadTs = ManagedValues.timestamp(request.loadTimestamp());
    List<Column> columns = new ArrayList<>();
    for (String name : spec.businessSchema().fieldNames()) {
      columns.add(typed.col(ManagedValues.quote(name)));
    }
    columns.add(loadTs.as(ManagedColumns.INSERT_TIME));
    columns.add(loadTs.as(ManagedColumns.UPDATE_TIME));
    columns.add(ManagedValues.liveSentinel().as(ManagedColumns.DELETE_TIME));
    typed
        .select(columns.toArray(new Column[0]))
        .write()
        .format("delta")
        .mode("overwrite")
        // Writer options rather than session confs: they bind to this one write only.
        .option("txnAppId", request.txnAppId())
        .option("txnVersion", request.loadSequence())
        .option(
            "userMetadata", CommitReceipt.stamped(request.commitMetadata(), counts, expectations))
        .save(spec.targetPath());
  }
}
