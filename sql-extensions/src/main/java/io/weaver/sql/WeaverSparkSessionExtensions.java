package io.weaver.sql;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Adds Weaver's SQL statements to a Spark session. List this class in {@code spark.sql.extensions},
 * before or after Delta's extension.
 *
 * <p>First it refuses a Spark of another minor than the jar was built for ({@link SparkLine}): the
 * session does not start, and the error names the artifact to use. Then it injects Weaver's parser
 * and rules ({@link WeaverSessionInjections}).
 */
public final class WeaverSparkSessionExtensions
    implements Function1<SparkSessionExtensions, BoxedUnit> {
  private final String runningSpark;

  /** The configurator Spark instantiates (from {@code spark.sql.extensions}). */
  public WeaverSparkSessionExtensions() {
    this(SparkLine.runningSparkVersion());
  }

  /** A configurator that takes {@code runningSpark} for the running Spark's version (tests). */
  WeaverSparkSessionExtensions(String runningSpark) {
    this.runningSpark = runningSpark;
  }

  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    SparkLine.compiled().requireRunning(runningSpark);
    WeaverSessionInjections.inject(extensions);
    return BoxedUnit.UNIT;
  }
}
