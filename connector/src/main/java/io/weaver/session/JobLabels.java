package io.weaver.session;

import java.util.Optional;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Names the Spark jobs Weaver starts after the work and its step, so the Spark UI of a notebook, a
 * cluster or the CLI reads like the work: {@code Weaver load Logistics.Parcel.Event: diff}.
 *
 * <p>Spark takes a job's description and group from the starting thread's local properties ({@code
 * spark.job.description}, {@code spark.jobGroup.id}). {@link #open} sets both for the current
 * thread and {@link Scope#close} puts back what was there; {@link #step} changes the description as
 * the work moves on. A job group the caller already set (a notebook cell's, which the notebook
 * cancels by) is kept: Weaver's jobs then belong to the cell, and only their descriptions say what
 * they are. Weaver's writing sessions share the caller's SparkContext and thread, so their jobs are
 * named too.
 */
public final class JobLabels {
  /** The local property Spark takes a job's description from. */
  public static final String DESCRIPTION = "spark.job.description";

  static final String GROUP = "spark.jobGroup.id";

  private static final ThreadLocal<Label> CURRENT = new ThreadLocal<>();

  private JobLabels() {}

  /** What runs on a thread: {@code work} (load, build, test) of {@code subject} (a Table). */
  private record Label(String work, String subject) {
    String describe(String step) {
      return "Weaver " + work + " " + subject + (step.isEmpty() ? "" : ": " + step);
    }
  }

  /** The open label of the current thread; closing it restores the thread's earlier one. */
  public static final class Scope implements AutoCloseable {
    private final SparkContext context;
    private final Label previous;
    private final String previousDescription;
    private final String previousGroup;
    private boolean closed;

    private Scope(SparkContext context, Label previous) {
      this.context = context;
      this.previous = previous;
      this.previousDescription = context.getLocalProperty(DESCRIPTION);
      this.previousGroup = context.getLocalProperty(GROUP);
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      context.setLocalProperty(DESCRIPTION, previousDescription);
      context.setLocalProperty(GROUP, previousGroup);
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }

  /**
   * Labels the current thread's jobs {@code Weaver <work> <subject>} until the scope is closed; the
   * job group is {@code weaver-<work>-<subject>} unless the caller set one.
   */
  public static Scope open(SparkSession spark, String work, String subject) {
    SparkContext context = spark.sparkContext();
    Scope scope = new Scope(context, CURRENT.get());
    Label label = new Label(work, subject);
    CURRENT.set(label);
    if (scope.previousGroup == null) {
      context.setLocalProperty(GROUP, "weaver-" + work + "-" + subject);
    }
    context.setLocalProperty(DESCRIPTION, label.describe(""));
    return scope;
  }

  /** Names the current thread's next jobs after {@code step} of the open work, if any. */
  public static void step(SparkSession spark, String step) {
    describe(step).ifPresent(d -> spark.sparkContext().setLocalProperty(DESCRIPTION, d));
  }

  /**
   * The description jobs of {@code step} of the current thread's open work carry, for work handed
   * to other threads.
   */
  public static Optional<String> describe(String step) {
    return Optional.ofNullable(CURRENT.get()).map(label -> label.describe(step));
  }
}
