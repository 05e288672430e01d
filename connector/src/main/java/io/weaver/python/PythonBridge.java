package io.weaver.python;

import io.weaver.lakehouse.LakehouseLayout;
import io.weaver.load.StagingProvider;
import io.weaver.load.spec.LoadFailure;
import io.weaver.metadata.TableDeclaration;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Where the JVM finds Python: a registry of {@link PythonTableRunner}s, one per {@link
 * SparkContext} (so every session of a PySpark application shares it), and the {@link
 * StagingProvider} that stages a Python Table by calling the runner.
 *
 * <p>The {@code weaver} Python package registers its runner when a {@code weaver.Workspace} is
 * created or {@code weaver.register(spark)} is called; {@code bin/weaver} registers the runner of
 * the Python worker it starts. Every workspace ({@code io.weaver.api.WeaverWorkspace}) — the Python
 * API's, the SQL statements', the CLI's — then loads Python Tables through it.
 */
public final class PythonBridge {
  private static final Map<SparkContext, PythonTableRunner> RUNNERS = new WeakHashMap<>();

  private PythonBridge() {}

  /** Registers (or replaces) the Python runner of {@code spark}'s SparkContext. */
  public static synchronized void register(SparkSession spark, PythonTableRunner runner) {
    RUNNERS.put(spark.sparkContext(), runner);
  }

  /** Removes the Python runner of {@code spark}'s SparkContext (the Python side is going away). */
  public static synchronized void unregister(SparkSession spark) {
    RUNNERS.remove(spark.sparkContext());
  }

  /** The runner registered for {@code spark}'s SparkContext, if any. */
  public static synchronized Optional<PythonTableRunner> runner(SparkSession spark) {
    return Optional.ofNullable(RUNNERS.get(spark.sparkContext()));
  }

  /** The staging provider for Python Tables over the registered runner, if any. */
  public static Optional<StagingProvider> provider(SparkSession spark, LakehouseLayout layout) {
    return runner(spark).map(r -> provider(spark, layout, r));
  }

  /** A staging provider that runs a Python Table's {@code read()} through {@code runner}. */
  public static StagingProvider provider(
      SparkSession spark, LakehouseLayout layout, PythonTableRunner runner) {
    return (table, context) -> stage(runner, new PythonReadRequest(spark, layout, table, context));
  }

  private static StagingProvider.Staging stage(
      PythonTableRunner runner, PythonReadRequest request) {
    PythonRead read;
    try {
      read = runner.read(request);
    } catch (RuntimeException e) { // py4j: the Python side is gone or its callback broke
      throw new LoadFailure(
          request.qualifiedName()
              + " ("
              + request.file()
              + "): the Python runtime did not answer: "
              + e.getMessage()
              + " — nothing was written");
    }
    if (read == null) {
      throw new LoadFailure(
          request.qualifiedName() + ": the Python runtime returned no result; nothing was written");
    }
    if (read.error().isPresent()) {
      throw new LoadFailure(read.error().get());
    }
    return new StagingProvider.Staging(read.staging(), read.deleteKeys(), read.bookmarkJson());
  }

  /** The message of a Python Table load when no Python runtime is registered. */
  public static String notAvailable(TableDeclaration table) {
    return "Python Table: no Python runtime is attached to this Spark session, so "
        + table.qualifiedName()
        + " was not loaded. Load it from PySpark (import weaver;"
        + " weaver.Workspace(spark, path).load('"
        + table.qualifiedName()
        + "'), or call weaver.register(spark) once and then LOAD WEAVER TABLE works), or with"
        + " bin/weaver load, which starts python3 with pyspark (pip install pyspark==4.1.1;"
        + " WEAVER_PYTHON or PYSPARK_PYTHON chooses the interpreter)";
  }
}
