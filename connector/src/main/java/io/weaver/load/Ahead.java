package io.weaver.load;

import io.weaver.session.JobLabels;
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
 * Reads a load starts ahead of its main thread (daemon threads; idle ones end after a minute). Each
 * task runs with the caller's active session and a copy of the caller's Spark local properties (a
 * notebook's job group, scheduler pool), so its jobs are cancelled and scheduled with the load's.
 */
final class Ahead {
  private static final ExecutorService POOL =
      new ThreadPoolExecutor(
          0,
          4,
          60,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          r -> {
            Thread thread = new Thread(r, "weaver-load-ahead");
            thread.setDaemon(true);
            return thread;
          },
          new ThreadPoolExecutor.CallerRunsPolicy());

  private Ahead() {}

  /** Starts {@code read}, whose jobs are named after {@code step} of the caller's work. */
  static <T> CompletableFuture<T> start(SparkSession spark, String step, Supplier<T> read) {
    SparkContext context = spark.sparkContext();
    Properties caller = (Properties) context.getLocalProperties().clone();
    // The caller's current job description names the caller's step, not this read.
    caller.remove(JobLabels.DESCRIPTION);
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

  /** The value of a read started ahead; its failure is rethrown as it was thrown. */
  static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}
