package io.weaver.session;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Work a load or a Build starts ahead of its main thread, or beside it (daemon threads, at most
 * four, the caller running what finds none free; idle ones end after a minute). Each task runs with
 * the caller's active session and a copy of the caller's Spark local properties (a notebook's job
 * group, scheduler pool), so its jobs are cancelled and scheduled with the caller's.
 */
public final class Ahead {
  private static final ExecutorService POOL =
      new ThreadPoolExecutor(
          0,
          4,
          60,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          r -> {
            Thread thread = new Thread(r, "weaver-ahead");
            thread.setDaemon(true);
            return thread;
          },
          new ThreadPoolExecutor.CallerRunsPolicy());

  private Ahead() {}

  /** Starts {@code read}, whose jobs are named after {@code step} of the caller's work. */
  public static <T> CompletableFuture<T> start(SparkSession spark, String step, Supplier<T> read) {
    SparkContext context = spark.sparkContext();
    Properties caller = (Properties) context.getLocalProperties().clone();
    // Inside a labelled work (a load) the caller's description names the caller's step, not this
    // one: replaced. Outside one (Build's catalogue writes) the caller's own description (a
    // notebook cell's) is kept.
    JobLabels.describe(step).ifPresent(d -> caller.setProperty(JobLabels.DESCRIPTION, d));
    return CompletableFuture.supplyAsync(
        () -> {
          Properties before = context.getLocalProperties();
          SparkSession.setActiveSession(spark);
          context.setLocalProperties(caller);
          try {
            return read.get();
          } finally {
            context.setLocalProperties(before);
          }
        },
        POOL);
  }

  /**
   * Runs every one of {@code steps} beside the others and returns when all have ended: the failure
   * of one is rethrown (as it was thrown) only after the rest have ended, so that nothing started
   * here still runs when the caller goes on.
   */
  public static void all(SparkSession spark, String step, List<Runnable> steps) {
    List<CompletableFuture<Object>> started =
        steps.stream()
            .map(
                s ->
                    start(
                        spark,
                        step,
                        () -> {
                          s.run();
                          return null;
                        }))
            .toList();
    CompletableFuture.allOf(started.toArray(CompletableFuture[]::new)).handle((v, e) -> v).join();
    started.forEach(Ahead::join);
  }

  /** The value of a read started ahead; its failure is rethrown as it was thrown. */
  public static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      // Spark's Scala code throws checked exceptions (AnalysisException) without declaring them:
      // passed on as thrown, so that callers and PySpark see Spark's own exception.
      throw Ahead.<RuntimeException>undeclared(e.getCause() != null ? e.getCause() : e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E undeclared(Throwable thrown) throws E {
    throw (E) thrown;
  }
}
