package io.weaver.session;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.sql.SparkSession;

/**
 * The sessions whose reads by Weaver name see each Table's latest Delta version rather than its
 * item's published one (docs/table-contract.md, "Item publish"): Weaver's own statements — a
 * Table's program run for a load or a plan, an authored test — and the engine's sessions, so that a
 * load of an item reads the new, not yet published, versions of the Tables it depends on (the run
 * is consistent with itself).
 *
 * <p>As with {@link EngineSessions}, a session is one of them because Weaver made it so, never
 * because of a setting: held weakly, by object.
 */
public final class LatestReads {
  private static final Map<SparkSession, Boolean> SESSIONS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private LatestReads() {}

  /** Makes {@code session}'s reads by name see latest versions. */
  public static void mark(SparkSession session) {
    SESSIONS.put(session, Boolean.TRUE);
  }

  /** Whether {@code session} reads latest versions by name. */
  public static boolean in(SparkSession session) {
    return session != null
        && (SESSIONS.containsKey(session) || EngineSessions.isEngineSession(session));
  }
}
