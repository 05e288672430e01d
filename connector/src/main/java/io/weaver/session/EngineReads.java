package io.weaver.session;

import java.util.function.Supplier;

/**
 * Marks reads Weaver's engine makes in the caller's session as reads of every row. With the SQL
 * extension in the session, reads of Weaver tables show live rows only; the engine's change
 * detection must see soft-deleted rows too (to revive them). Spark analyses a read where it is
 * created, on the creating thread, so the extension's read rule asks {@link #active()} then and
 * marks the read as an all-rows read for good (the mark survives later re-analysis).
 */
public final class EngineReads {
  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private EngineReads() {}

  /** Creates (and so analyses) a read inside the engine's all-rows scope. */
  public static <T> T allRows(Supplier<T> read) {
    int[] depth = DEPTH.get();
    depth[0]++;
    try {
      return read.get();
    } finally {
      depth[0]--;
    }
  }

  /** Whether the current thread is creating an engine read. */
  public static boolean active() {
    return DEPTH.get()[0] > 0;
  }
}
