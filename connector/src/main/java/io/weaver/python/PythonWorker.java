package io.weaver.python;

import io.weaver.session.WeaverConf;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import py4j.ClientServer;

/**
 * A Python process attached to this JVM's Spark session, the way {@code spark-submit} runs a Python
 * application: a py4j gateway in the JVM, {@code python3 -m weaver._worker} started with {@code
 * PYSPARK_GATEWAY_PORT}/{@code PYSPARK_GATEWAY_SECRET}, which wraps the JVM's SparkSession in
 * PySpark and registers its Python Table runner ({@link PythonBridge}). {@code bin/weaver} uses it
 * so that {@code load} and {@code run} load Python Tables.
 *
 * <p>The interpreter is {@code WEAVER_PYTHON}, else {@code PYSPARK_PYTHON}, else {@code python3};
 * it needs PySpark of the same version as this JVM's Spark. The {@code weaver} package comes from
 * the source tree ({@code -Dweaver.home}), else from the classpath (the bundle jar), else from the
 * interpreter's own site-packages ({@code pip install}).
 */
public final class PythonWorker implements AutoCloseable {
  /** How long the worker may take to start PySpark and register (seconds). */
  private static final long START_SECONDS = WeaverConf.pythonStartTimeoutSeconds();

  private final SparkSession spark;
  private final ClientServer server;
  private final Process process;

  private PythonWorker(SparkSession spark, ClientServer server, Process process) {
    this.spark = spark;
    this.server = server;
    this.process = process;
  }

  /** The handshake object the worker reaches as py4j's entry point. */
  public static final class Entry {
    private final SparkSession spark;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile PythonTableRunner runner;
    private volatile String failure;

    Entry(SparkSession spark) {
      this.spark = spark;
    }

    public SparkSession session() {
      return spark;
    }

    public JavaSparkContext javaSparkContext() {
      return JavaSparkContext.fromSparkContext(spark.sparkContext());
    }

    public String sparkVersion() {
      return spark.version();
    }

    /** The worker is ready: its runner loads Python Tables from now on. */
    public void ready(PythonTableRunner runner) {
      this.runner = runner;
      done.countDown();
    }

    /** The worker cannot serve (e.g. PySpark of another version); {@code message} says why. */
    public void failed(String message) {
      this.failure = message;
      done.countDown();
    }
  }

  /** The interpreter to start: {@code WEAVER_PYTHON}, {@code PYSPARK_PYTHON}, or python3. */
  public static String interpreter() {
    for (String name : new String[] {"WEAVER_PYTHON", "PYSPARK_PYTHON"}) {
      String value = System.getenv(name);
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return "python3";
  }

  /**
   * Starts the worker and waits until it registered its runner for {@code spark}. On any failure
   * returns the reason (with how to fix it) instead; nothing stays running then.
   *
   * @param log where the worker's own output goes (stderr of the CLI)
   * @param progress the command's progress, which says that the worker starts ({@code --quiet}
   *     keeps it silent)
   */
  public static StartResult start(SparkSession spark, PrintStream log, Consumer<String> progress) {
    String python = interpreter();
    String secret = secret();
    Entry entry = new Entry(spark);
    ClientServer server =
        new ClientServer.ClientServerBuilder(entry)
            .javaPort(0)
            .javaAddress(InetAddress.getLoopbackAddress())
            .authToken(secret)
            .build();
    Process process = null;
    Deque<String> tail = new ArrayDeque<>();
    try {
      int port = server.getJavaServer().getListeningPort();
      ProcessBuilder pb = new ProcessBuilder(python, "-m", "weaver._worker");
      pb.redirectErrorStream(true);
      Map<String, String> env = pb.environment();
      env.put("PYSPARK_GATEWAY_PORT", Integer.toString(port));
      env.put("PYSPARK_GATEWAY_SECRET", secret);
      env.put("PYSPARK_PIN_THREAD", "true");
      env.put("WEAVER_SPARK_VERSION", spark.version());
      env.put("PYTHONUNBUFFERED", "1");
      Optional<Path> packageRoot = packageRoot();
      packageRoot.ifPresent(
          p ->
              env.put(
                  "PYTHONPATH",
                  p
                      + Optional.ofNullable(System.getenv("PYTHONPATH"))
                          .filter(s -> !s.isBlank())
                          .map(s -> java.io.File.pathSeparator + s)
                          .orElse("")));
      progress.accept("starting the Python worker (" + python + ")");
      try {
        process = pb.start();
      } catch (IOException e) {
        server.shutdown();
        return StartResult.failed(
            "cannot start Python ('"
                + python
                + "': "
                + e.getMessage()
                + "). Python Tables need Python 3 with PySpark "
                + spark.version()
                + ": install it (pip install pyspark=="
                + spark.version()
                + ") or point WEAVER_PYTHON (or PYSPARK_PYTHON) at such an interpreter");
      }
      pump(process.getInputStream(), log, tail);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
      while (entry.done.getCount() > 0 && process.isAlive() && System.nanoTime() < deadline) {
        entry.done.await(200, TimeUnit.MILLISECONDS);
      }
      if (entry.runner != null) {
        PythonBridge.register(spark, entry.runner);
        return new StartResult(Optional.of(new PythonWorker(spark, server, process)), null);
      }
      String why;
      if (entry.failure != null) {
        why = entry.failure;
      } else if (!process.isAlive()) {
        process.waitFor(2, TimeUnit.SECONDS);
        why =
            "the Python worker ("
                + python
                + ") exited with code "
                + process.exitValue()
                + " before it was ready"
                + lastLines(tail);
      } else {
        why = "the Python worker (" + python + ") was not ready after " + START_SECONDS + "s";
      }
      stop(process, server);
      return StartResult.failed(
          why
              + ". Python Tables need Python 3 with PySpark "
              + spark.version()
              + " (pip install pyspark=="
              + spark.version()
              + "); WEAVER_PYTHON or PYSPARK_PYTHON chooses the interpreter");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop(process, server);
      return StartResult.failed("interrupted while starting the Python worker");
    } catch (RuntimeException e) {
      stop(process, server);
      return StartResult.failed("cannot start the Python worker: " + e.getMessage());
    }
  }

  /** The outcome of {@link #start}: a running worker, or why there is none. */
  public record StartResult(Optional<PythonWorker> worker, String failure) {
    static StartResult failed(String why) {
      return new StartResult(Optional.empty(), why);
    }
  }

  /** Unregisters the runner and stops the worker (closing its stdin ends it). */
  @Override
  public void close() {
    PythonBridge.unregister(spark);
    stop(process, server);
  }

  private static void stop(Process process, ClientServer server) {
    if (process != null) {
      try {
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroy();
          if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
          }
        }
      } catch (IOException e) {
        process.destroyForcibly();
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try {
      server.shutdown();
    } catch (RuntimeException e) {
      // already closed
    }
  }

  /** Copies the worker's output to {@code log}, keeping its last lines for error messages. */
  private static void pump(InputStream in, PrintStream log, Deque<String> tail) {
    Thread t =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  log.println("python: " + line);
                  synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > 15) {
                      tail.removeFirst();
                    }
                  }
                }
              } catch (IOException e) {
                // the worker went away
              }
            },
            "weaver-python-output");
    t.setDaemon(true);
    t.start();
  }

  private static String lastLines(Deque<String> tail) {
    synchronized (tail) {
      return tail.isEmpty() ? "" : ":\n  " + String.join("\n  ", tail);
    }
  }

  private static String secret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /**
   * Where the {@code weaver} package is: the source tree of {@code -Dweaver.home}, else extracted
   * from the jar that carries it; empty when neither (then the interpreter must have it installed).
   */
  static Optional<Path> packageRoot() {
    String home = WeaverConf.home().orElse(null);
    if (home != null) {
      Path src = Path.of(home, "python-bindings", "src", "main", "python");
      if (Files.isRegularFile(src.resolve("weaver").resolve("_worker.py"))) {
        return Optional.of(src);
      }
    }
    URL marker = PythonWorker.class.getClassLoader().getResource("weaver/_worker.py");
    if (marker == null) {
      return Optional.empty();
    }
    try {
      if (marker.getProtocol().equals("file")) {
        return Optional.of(Path.of(marker.toURI()).getParent().getParent());
      }
      if (marker.getProtocol().equals("jar")) {
        String spec = marker.getPath(); // file:/...jar!/weaver/_worker.py
        Path jar = Path.of(java.net.URI.create(spec.substring(0, spec.indexOf("!/"))));
        return Optional.of(extract(jar));
      }
    } catch (IOException | URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static Path extract(Path jar) throws IOException {
    Path dir = Files.createTempDirectory("weaver-python");
    try (JarFile file = new JarFile(jar.toFile())) {
      for (JarEntry e : java.util.Collections.list(file.entries())) {
        if (!e.getName().startsWith("weaver/") || e.isDirectory() || e.getName().contains("..")) {
          continue;
        }
        Path out = dir.resolve(e.getName());
        Files.createDirectories(out.getParent());
        try (InputStream in = file.getInputStream(e)) {
          Files.copy(in, out);
        }
        out.toFile().deleteOnExit();
      }
    }
    dir.toFile().deleteOnExit();
    return dir;
  }
}
