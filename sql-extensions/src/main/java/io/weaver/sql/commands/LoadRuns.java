package io.weaver.sql.commands;

import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.load.LoadRun;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.spark.sql.SparkSession;

/**
 * The load runs open in each Spark session ({@code SHOW WEAVER LOAD PLAN … OPEN RUN}), by run id,
 * until {@code PUBLISH WEAVER RUN} ends them. Each Spark Connect session is its own Spark session,
 * so one client never sees another's runs. Bounded: a session keeps its {@value #OPEN_PER_SESSION}
 * most recently used runs (a client that stopped half-way never ends its run), and a session that
 * is gone takes its runs with it. Safe to use from concurrent statements.
 */
final class LoadRuns {
  /** How many runs a session keeps open; opening one more forgets the least recently used. */
  static final int OPEN_PER_SESSION = 16;

  private static final SecureRandom IDS = new SecureRandom();

  /** Weak keys: Spark sessions compare by identity, and a closed one is collected with its runs. */
  private static final Map<SparkSession, Map<String, Open>> BY_SESSION = new WeakHashMap<>();

  private LoadRuns() {}

  /** A run and the workspace it was opened on. */
  private record Open(Path root, LoadRun run) {}

  /** Keeps {@code run} of the workspace {@code root} in {@code session}; returns its new id. */
  static String open(SparkSession session, Path root, LoadRun run) {
    byte[] random = new byte[12];
    IDS.nextBytes(random);
    String id = "run-" + HexFormat.of().formatHex(random);
    synchronized (BY_SESSION) {
      runs(session).put(id, new Open(root, run));
    }
    return id;
  }

  /**
   * The open run {@code id} of {@code session} on the workspace {@code root}.
   *
   * @throws IllegalArgumentException when the session has no such run open on that workspace
   */
  static LoadRun get(SparkSession session, Path root, String id) {
    synchronized (BY_SESSION) {
      return find(session, root, id);
    }
  }

  /**
   * Removes and returns the open run {@code id}: it ends here.
   *
   * @throws IllegalArgumentException when the session has no such run open on that workspace
   */
  static LoadRun end(SparkSession session, Path root, String id) {
    synchronized (BY_SESSION) {
      LoadRun run = find(session, root, id);
      runs(session).remove(id);
      return run;
    }
  }

  private static LoadRun find(SparkSession session, Path root, String id) {
    Open open = runs(session).get(id);
    if (open == null) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "this session has no open load run '"
              + id
              + "' (a run ends with PUBLISH WEAVER RUN, and a session keeps its "
              + OPEN_PER_SESSION
              + " most recently used runs); open one with SHOW WEAVER LOAD PLAN … OPEN RUN");
    }
    if (!open.root().equals(root)) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_REQUEST,
          "load run '"
              + id
              + "' was opened on the workspace "
              + open.root()
              + ", not on "
              + root
              + "; set spark.weaver.workspace back, or open a run on this workspace");
    }
    return open.run();
  }

  private static Map<String, Open> runs(SparkSession session) {
    return BY_SESSION.computeIfAbsent(
        session,
        s ->
            new LinkedHashMap<>(OPEN_PER_SESSION, 0.75f, true) {
              @Override
              protected boolean removeEldestEntry(Map.Entry<String, Open> eldest) {
                return size() > OPEN_PER_SESSION;
              }
            });
  }
}
