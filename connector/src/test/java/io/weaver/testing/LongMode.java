package io.weaver.testing;

import java.util.stream.Stream;

/**
 * The long mode of the test suites (docs/reliability.md, "Long mode"; {@code mvn -B verify
 * -Plong}): CI runs each capability once on the default write path and entry point, the long mode
 * runs it on every one. Whole test methods join the long mode with {@code @Tag(LongMode.TAG)}; a
 * case parameterised by writer takes {@link #writers()}.
 */
public final class LongMode {
  /** The JUnit tag CI leaves out (the parent pom's {@code test.excludedGroups}). */
  public static final String TAG = "long";

  private LongMode() {}

  /** Whether this run is the long mode (the pom's {@code long} profile sets the property). */
  public static boolean on() {
    return Boolean.getBoolean("weaver.tests.long");
  }

  /**
   * The load writers a writer-parameterised case runs on: the direct writer always, the MERGE
   * writer (the fallback, which the differential test and HistoryTest take in CI) in the long mode.
   */
  public static Stream<String> writers() {
    return on() ? Stream.of("direct", "merge") : Stream.of("direct");
  }
}
