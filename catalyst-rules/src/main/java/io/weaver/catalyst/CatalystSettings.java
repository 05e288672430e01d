package io.weaver.catalyst;

import java.util.Locale;

/**
 * The Weaver settings catalyst-rules reads itself, keys and reading in one place. catalyst-rules is
 * the lowest layer and cannot see {@code session.WeaverConf} (in the connector), so WeaverConf
 * names these keys by delegating here; everything else is read through WeaverConf.
 */
public final class CatalystSettings {
  /**
   * JVM system property: {@code portable} sends loads down Delta's public API where its internals
   * exist too (how the load suite runs on the portable path, docs/environments.md). A JVM property,
   * not a session setting.
   */
  public static final String DELTA_LOADS = "weaver.delta.loads";

  private CatalystSettings() {}

  /** Whether {@link #DELTA_LOADS} asks for the portable path. */
  public static boolean portableLoads() {
    return "portable".equals(System.getProperty(DELTA_LOADS, "").strip().toLowerCase(Locale.ROOT));
  }
}
