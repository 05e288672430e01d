package io.weaver.cli;

import java.io.PrintStream;

/**
 * Whether a call's stdout and stderr are a terminal a person reads: progress is then redrawn in
 * place and {@code plan} prints in colour. A warm process ({@link WarmServer}) has no terminal of
 * its own, so its client sends this with each call.
 */
record Terminal(boolean stdout, boolean stderr) {
  /**
   * This process's answer for {@code out} and {@code err}: a terminal when the stream is the
   * process's own, the JVM has a console and {@code TERM} is not {@code dumb}.
   */
  static Terminal of(PrintStream out, PrintStream err) {
    boolean console = thisProcessHasOne();
    return new Terminal(console && out == System.out, console && err == System.err);
  }

  /** Whether this process runs on a terminal (what a client sends to a warm process). */
  static boolean thisProcessHasOne() {
    return System.console() != null && !"dumb".equals(System.getenv("TERM"));
  }
}
