package io.weaver.catalyst.delta;

import io.weaver.catalyst.CatalystSettings;

/**
 * Whether open-source Delta's internal classes are on this JVM's classpath, and whether loads may
 * use them.
 *
 * <p>Open-source Delta (what {@code --packages io.delta:delta-spark_2.13} and Fabric ship) has
 * them; Databricks Runtime's Delta has other classes under other names. Loads then read the log
 * through Delta's public API instead ({@link PublicDeltaLog}: slower — a history read instead of a
 * snapshot field — and without warming the snapshot's file list ahead of the write).
 *
 * <p>The JVM system property {@value #LOADS_PROPERTY}{@code =portable} makes loads take the public
 * path where the internals exist too: that is how the load suite is run on the portable path (see
 * docs/environments.md). It is a JVM property, not a session setting, and it does not reach the DML
 * guards or the live-rows rule: those use the internals whenever they are present.
 */
public final class DeltaInternals {
  /** The JVM system property that sends loads down the public path: {@code portable}. */
  public static final String LOADS_PROPERTY = CatalystSettings.DELTA_LOADS;

  private static final boolean PRESENT = present("org.apache.spark.sql.delta.DeltaLog");

  private DeltaInternals() {}

  /** Whether open-source Delta's internal classes are here (the rules need them). */
  public static boolean present() {
    return PRESENT;
  }

  /** Whether loads use the internals: present, and not sent down the portable path. */
  public static boolean forLoads() {
    return PRESENT && !CatalystSettings.portableLoads();
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, DeltaInternals.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError absent) {
      return false;
    }
  }
}
