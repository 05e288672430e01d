package io.weaver.session;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.sql.SparkSession;

/**
 * The sessions Weaver's engine writes through (a load's MERGE, Build's re-sign UPDATE), which the
 * SQL extension's DML guards let assign managed columns and update every row.
 *
 * <p>A session is one of them because the engine made it here, not because of anything it carries:
 * the set holds session objects, so no {@code SET}, session conf or statement can put a user's
 * session in it (a conf could be typed, which is how the guards were once switched off). Sessions
 * are held weakly: one the engine drops is gone from the set when it is collected.
 */
public final class EngineSessions {
  private static final Map<SparkSession, Boolean> SESSIONS =
      Collections.synchronizedMap(new WeakHashMap<>());

  static final String PARQUET_TIMESTAMP_TYPE = "spark.sql.parquet.outputTimestampType";

  private EngineSessions() {}

  /**
   * A new session over {@code spark}'s context (shared catalog and temporary functions, own confs)
   * that the guards treat as the engine's, writing timestamps as Parquet microseconds.
   */
  public static SparkSession open(SparkSession spark) {
    SparkSession session = spark.newSession();
    // Spark's default Parquet timestamp is INT96, which readers outside Spark (delta-rs, polars,
    // Arrow) read as nanoseconds, where a live row's delete time, 9999-12-31, does not fit: they
    // fail or silently clamp it to 2262. Microseconds are what Spark's timestamps hold, and every
    // reader reads them exactly (docs/environments.md, "Readers outside Spark").
    session.conf().set(PARQUET_TIMESTAMP_TYPE, "TIMESTAMP_MICROS");
    Evaluation.inherit(spark, session);
    SESSIONS.put(session, Boolean.TRUE);
    return session;
  }

  /** Whether {@code session} was made by {@link #open}. */
  public static boolean isEngineSession(SparkSession session) {
    return session != null && SESSIONS.containsKey(session);
  }
}
