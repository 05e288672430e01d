package io.weaver.session;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Runs the steps of a dependency walk side by side (docs/performance.md, "Side by side"): a step
 * starts as soon as every step it depends on has ended, at most {@code threads} at once, the
 * earliest ready step (in walk order) first. With one thread the steps run on the caller's thread,
 * one after another, in walk order.
 *
 * <p>Each step runs with the caller's active session and a copy of the caller's Spark local
 * properties (a notebook's job group and job tags, so a cancel reaches it), in a scheduler pool of
 * its own slot ({@code weaver-1} … {@code weaver-N}): under {@code spark.scheduler.mode=FAIR} a
 * large Table's jobs do not starve a small one's. Pools are per slot, not per step, so a session
 * that runs many walks holds at most {@code threads} pools.
 *
 * <p>A step that throws stops new steps from starting; the running ones end, then the first failure
 * is rethrown as it was thrown. Steps report their own failures as results (a load's {@code failed}
 * row), so a throw here is an error of the engine itself.
 *
 * @param <T> a step (a Table of the walk)
 */
public final class SideBySide<T> {
  /** The local property that names a job's scheduler pool. */
  public static final String POOL = "spark.scheduler.pool";

  private final SparkSession spark;
  private final int threads;
  private final Function<T, Collection<T>> dependsOn;

  /**
   * @param dependsOn the steps a step waits for; steps not among those run are not waited for
   */
  public SideBySide(SparkSession spark, int threads, Function<T, Collection<T>> dependsOn) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    this.spark = spark;
    this.threads = threads;
    this.dependsOn = dependsOn;
  }

  /** What {@link #run} says as steps start and end: the step and the steps in flight. */
  public interface Listener<T> {
    void started(T step, int ordinal, List<T> inFlight);
  }

  /**
   * Runs {@code step} for each of {@code steps} (in dependency order: a step's dependencies come
   * before it) and returns when all have ended.
   */
  public void run(List<T> steps, Consumer<T> step, Listener<T> listener) {
    if (threads == 1 || steps.size() < 2) {
      int ordinal = 0;
      for (T s : steps) {
        listener.started(s, ++ordinal, List.of(s));
        step.accept(s);
      }
      return;
    }
    Set<T> all = new HashSet<>(steps);
    List<T> waiting = new ArrayList<>(steps);
    Set<T> ended = new HashSet<>();
    Set<T> inFlight = new LinkedHashSet<>();
    LinkedBlockingQueue<Ended<T>> endings = new LinkedBlockingQueue<>();
    SparkContext context = spark.sparkContext();
    Properties caller = (Properties) context.getLocalProperties().clone();
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(threads, steps.size()),
            r -> {
              Thread t = new Thread(r, "weaver-side-by-side-" + threadNumber.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    Set<Integer> freeSlots = new LinkedHashSet<>();
    for (int i = 1; i <= threads; i++) {
      freeSlots.add(i);
    }
    Map<T, Integer> slotOf = new HashMap<>();
    Throwable failure = null;
    int ordinal = 0;
    try {
      while (!waiting.isEmpty() || !inFlight.isEmpty()) {
        if (failure == null) {
          for (var it = waiting.iterator(); it.hasNext() && inFlight.size() < threads; ) {
            T next = it.next();
            if (!ready(next, all, ended)) {
              continue;
            }
            it.remove();
            int slot = freeSlots.iterator().next();
            freeSlots.remove(slot);
            slotOf.put(next, slot);
            inFlight.add(next);
            listener.started(next, ++ordinal, List.copyOf(inFlight));
            Properties own = (Properties) caller.clone();
            own.setProperty(POOL, "weaver-" + slot);
            pool.execute(() -> endings.add(runOne(context, own, step, next)));
          }
        } else {
          waiting.clear();
        }
        if (inFlight.isEmpty()) {
          if (!waiting.isEmpty()) {
            throw new IllegalStateException(
                "steps wait for steps that never run (a dependency cycle): " + waiting);
          }
          break;
        }
        Ended<T> done = endings.take();
        inFlight.remove(done.step());
        freeSlots.add(slotOf.remove(done.step()));
        ended.add(done.step());
        if (done.failure() != null && failure == null) {
          failure = done.failure();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pool.shutdownNow();
      throw new IllegalStateException("interrupted while Tables ran side by side", e);
    } finally {
      pool.shutdown();
    }
    if (failure != null) {
      throw SideBySide.<RuntimeException>undeclared(failure);
    }
  }

  private boolean ready(T step, Set<T> all, Set<T> ended) {
    for (T d : dependsOn.apply(step)) {
      if (all.contains(d) && !ended.contains(d)) {
        return false;
      }
    }
    return true;
  }

  private Ended<T> runOne(SparkContext context, Properties own, Consumer<T> step, T s) {
    Properties before = context.getLocalProperties();
    SparkSession.setActiveSession(spark);
    context.setLocalProperties(own);
    try {
      step.accept(s);
      return new Ended<>(s, null);
    } catch (Throwable e) {
      return new Ended<>(s, e);
    } finally {
      context.setLocalProperties(before);
    }
  }

  private record Ended<T>(T step, Throwable failure) {}

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E undeclared(Throwable thrown) throws E {
    throw (E) thrown;
  }
}
