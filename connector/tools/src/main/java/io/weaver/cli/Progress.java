package io.weaver.cli;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.spark.SparkStageInfo;
import org.apache.spark.SparkStatusTracker;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;

/**
 * Progress of the Spark-backed commands on stderr, never on stdout (where {@code --format json}
 * writes its one document): a line per Table ({@code weaver: load 2/5 Logistics.Parcel.Event}), the
 * current step of its work as the Spark job names it ({@code io.weaver.session.JobLabels}), and on
 * a terminal one status line redrawn in place with the running stage's task bar. {@code --quiet}
 * silences all of it; errors still reach stderr.
 */
final class Progress extends SparkListener implements Consumer<String>, AutoCloseable {
  private static final int BAR = 24;

  private final PrintStream err;
  private final boolean quiet;
  private final boolean terminal;
  private SparkSession spark;
  private ScheduledExecutorService ticker;
  private volatile String current = "";
  private volatile String step = "";
  private int drawn;

  /** The Spark jobs the command ran (printed at its end: what its work cost). */
  private final java.util.concurrent.atomic.AtomicInteger jobs =
      new java.util.concurrent.atomic.AtomicInteger();

  private Progress(PrintStream err, boolean quiet, boolean terminal) {
    this.err = err;
    this.quiet = quiet;
    this.terminal = terminal;
  }

  /** Progress for {@code args}: silent with {@code --quiet}, redrawn in place on a terminal. */
  static Progress of(CliArgs args, PrintStream err) {
    return new Progress(err, args.has("--quiet"), args.terminal().stderr());
  }

  /** A message of the command ("starting Spark", a Python worker's state). */
  void note(String message) {
    if (!quiet) {
      line("weaver: " + message);
    }
  }

  /** A Table started: {@code load 2/5 Logistics.Parcel.Event}. */
  @Override
  public synchronized void accept(String tableLine) {
    if (quiet) {
      return;
    }
    current = tableLine;
    step = "";
    line("weaver: " + tableLine);
  }

  /** Follows the steps of the work in {@code session}'s Spark jobs until closed. */
  void follow(SparkSession session) {
    if (quiet) {
      return;
    }
    this.spark = session;
    session.sparkContext().addSparkListener(this);
    if (terminal) {
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread thread = new Thread(r, "weaver-progress");
                thread.setDaemon(true);
                return thread;
              });
      ticker.scheduleAtFixedRate(this::redraw, 250, 250, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    jobs.incrementAndGet();
    String description =
        job.properties() == null ? null : job.properties().getProperty("spark.job.description");
    String next = stepOf(description);
    if (next.isEmpty() || next.equals(step)) {
      return;
    }
    step = next;
    if (!terminal) {
      synchronized (this) {
        line("weaver:   " + next);
      }
    }
  }

  /** The step a Weaver job description names ({@code Weaver load X: diff} → {@code diff}). */
  static String stepOf(String description) {
    if (description == null || !description.startsWith("Weaver ")) {
      return "";
    }
    int colon = description.indexOf(": ");
    return colon < 0 ? "" : description.substring(colon + 2);
  }

  /** The status line: the Table, its step and the running stage's tasks as a bar. */
  static String status(String table, String step, int stage, int done, int total) {
    StringBuilder line = new StringBuilder("weaver: ").append(table);
    if (!step.isEmpty()) {
      line.append(": ").append(step);
    }
    if (total > 0) {
      int filled = (int) ((long) BAR * Math.min(done, total) / total);
      line.append("  stage ")
          .append(stage)
          .append(" [")
          .append("=".repeat(filled))
          .append(" ".repeat(BAR - filled))
          .append("] ")
          .append(done)
          .append('/')
          .append(total);
    }
    return line.toString();
  }

  private synchronized void redraw() {
    if (current.isEmpty() || spark == null) {
      return;
    }
    int stage = -1;
    int done = 0;
    int total = 0;
    SparkStatusTracker tracker = spark.sparkContext().statusTracker();
    for (int id : tracker.getActiveStageIds()) {
      scala.Option<SparkStageInfo> info = tracker.getStageInfo(id);
      if (info.isDefined() && info.get().numTasks() > total) {
        stage = id;
        total = info.get().numTasks();
        done = info.get().numCompletedTasks();
      }
    }
    String text = status(current, step, stage, done, total);
    err.print("\r" + text + " ".repeat(Math.max(0, drawn - text.length())));
    err.flush();
    drawn = text.length();
  }

  /** A whole line, after clearing a status line drawn in place. */
  private void line(String text) {
    if (drawn > 0) {
      err.print("\r" + " ".repeat(drawn) + "\r");
      drawn = 0;
    }
    err.println(text);
  }

  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    if (spark != null) {
      // Spark delivers listener events on its own thread: the last jobs' may still be queued.
      try {
        spark.sparkContext().listenerBus().waitUntilEmpty(2_000);
      } catch (Exception notDrained) {
        // the count may miss the last jobs' events
      }
      spark.sparkContext().removeSparkListener(this);
      line("weaver: " + jobs.get() + " Spark jobs");
      spark = null;
    }
    if (drawn > 0) {
      err.print("\r" + " ".repeat(drawn) + "\r");
      err.flush();
      drawn = 0;
    }
  }
}
