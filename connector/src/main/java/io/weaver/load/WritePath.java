package io.weaver.load;

import io.weaver.catalyst.delta.DirectCommit;
import io.weaver.session.WeaverConf;
import java.util.Locale;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * How a keyed load commits its change set: {@link #DIRECT} (new row versions and deletion vectors
 * in one Delta commit, {@link DirectWrite}) or {@link #MERGE} (one Delta MERGE, {@link
 * KeyedMerge}). Both write the same rows; the direct path skips MERGE's second scan of the target.
 */
enum WritePath {
  DIRECT,
  MERGE;

  /**
   * The JVM system property that sets the default of {@link WeaverConf#LOAD_WRITER}: how the load
   * suite runs on the MERGE path ({@code -Dweaver.load.writer=merge}).
   */
  static final String PROPERTY = "weaver.load.writer";

  /** The path for a load of {@code spec} whose diff reads {@code version}. */
  static WritePath choose(SparkSession spark, LoadSpec spec, long version) {
    String fallback = System.getProperty(PROPERTY, "auto");
    String asked =
        spark.conf().get(WeaverConf.LOAD_WRITER, fallback).strip().toLowerCase(Locale.ROOT);
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
