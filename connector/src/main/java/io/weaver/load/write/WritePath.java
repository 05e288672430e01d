package io.weaver.load.write;

import io.weaver.catalyst.delta.DirectCommit;
import io.weaver.load.spec.LoadFailure;
import io.weaver.load.spec.LoadSpec;
import io.weaver.session.WeaverConf;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * How a keyed load commits its change set: {@link #DIRECT} (new row versions and deletion vectors
 * in one Delta commit, {@link DirectWrite}) or {@link #MERGE} (one Delta MERGE, {@link
 * KeyedMerge}). Both write the same rows; the direct path skips MERGE's second scan of the target.
 */
public enum WritePath {
  DIRECT,
  MERGE;

  /** The path for a load of {@code spec} whose diff reads {@code version}. */
  static WritePath choose(SparkSession spark, LoadSpec spec, long version) {
    String asked = WeaverConf.loadWriter(spark);
    switch (asked) {
      case "merge":
        return MERGE;
      case "auto":
        return DirectCommit.unavailable(spark, spec.targetPath(), version).isEmpty()
            ? DIRECT
            : MERGE;
      case "direct":
        Optional<String> reason = DirectCommit.unavailable(spark, spec.targetPath(), version);
        if (reason.isPresent()) {
          throw new LoadFailure(
              spec.tableName()
                  + ": "
                  + WeaverConf.LOAD_WRITER
                  + "=direct, but the direct writer cannot write this table ("
                  + reason.get()
                  + "); nothing written. Set it to auto (MERGE where direct cannot write) or"
                  + " merge.");
        }
        return DIRECT;
      default:
        throw new LoadFailure(
            spec.tableName()
                + ": "
                + WeaverConf.LOAD_WRITER
                + " must be auto, direct or merge, not '"
                + asked
                + "'; nothing written.");
    }
  }
}
