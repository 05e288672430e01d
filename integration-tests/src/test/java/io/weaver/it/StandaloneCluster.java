package io.weaver.it;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real Spark standalone cluster on loopback: one master and one worker started with {@code
 * spark-class} from the Spark distribution inside the pyspark wheel, as a user starts one. Its
 * executors are JVMs of their own, so anything a task carries must serialise and its classes must
 * reach them. {@link #close} stops both processes (with any children).
 */
final class StandaloneCluster implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long START_SECONDS = 120;

  final String url;
  final Path workDir;
  private final int webUiPort;
  private final Path logs;
  private final List<Process> processes = new ArrayList<>();

  private StandaloneCluster(String url, int webUiPort, Path workDir, Path logs) {
    this.url = url;
    this.webUiPort = webUiPort;
    this.workDir = workDir;
    this.logs = logs;
  }

  /**
   * Starts a master and a worker with {@code cores} cores and {@code memory} (e.g. {@code 2g}) on
   * free ports and waits until the master lists the worker as alive; on failure nothing stays
   * running.
   */
  static StandaloneCluster start(Path sparkHome, Path dir, int cores, String memory)
      throws IOException, InterruptedException {
    int port = freePort();
    int masterUi = freePort();
    int workerUi = freePort();
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Path work = Files.createDirectories(dir.resolve("work"));
    String url = "spark://127.0.0.1:" + port;
    StandaloneCluster cluster = new StandaloneCluster(url, masterUi, work, logs);
    try {
      cluster.launch(
          sparkHome,
          "master",
          "org.apache.spark.deploy.master.Master",
          "--host",
          "127.0.0.1",
          "--port",
          Integer.toString(port),
          "--webui-port",
          Integer.toString(masterUi));
      cluster.launch(
          sparkHome,
          "worker",
          "org.apache.spark.deploy.worker.Worker",
          "--host",
          "127.0.0.1",
          "--cores",
          Integer.toString(cores),
          "--memory",
          memory,
          "--webui-port",
          Integer.toString(workerUi),
          "--work-dir",
          work.toString(),
          url);
      cluster.awaitWorker();
    } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** The master's state ({@code /json/}): workers, active and completed applications. */
  JsonNode state() throws IOException {
    try (InputStream in =
        URI.create("http://127.0.0.1:" + webUiPort + "/json/").toURL().openStream()) {
      return JSON.readTree(in);
    }
  }

  /** The ids of every application the master has seen (running or completed). */
  Set<String> appIds() throws IOException {
    JsonNode state = state();
    List<JsonNode> apps = new ArrayList<>();
    state.path("activeapps").forEach(apps::add);
    state.path("completedapps").forEach(apps::add);
    return apps.stream().map(a -> a.path("id").asText()).collect(Collectors.toSet());
  }

  /** The completed application with id {@code id}, or a missing node. */
  JsonNode completedApp(String id) throws IOException {
    for (JsonNode app : state().path("completedapps")) {
      if (app.path("id").asText().equals(id)) {
        return app;
      }
    }
    return JSON.missingNode();
  }

  /** The last lines of the master's and the worker's logs, for a failure message. */
  String logTail() {
    StringBuilder text = new StringBuilder();
    for (String name : List.of("master", "worker")) {
      try {
        List<String> lines = Files.readAllLines(logs.resolve(name + ".log"));
        text.append("\n--- ")
            .append(name)
            .append(" log\n")
            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
      } catch (IOException e) {
        text.append("\n--- no ").append(name).append(" log: ").append(e.getMessage());
      }
    }
    return text.toString();
  }

  @Override
  public void close() {
    // Worker first, so the master does not log it as lost; children (executors) before parents.
    for (int i = processes.size() - 1; i >= 0; i--) {
      Process p = processes.get(i);
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
    }
    for (Process p : processes) {
      try {
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
  }

  private void launch(Path sparkHome, String name, String mainClass, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(sparkHome.resolve("bin/spark-class").toString());
    command.add(mainClass);
    command.addAll(List.of(args));
    Path log = logs.resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("SPARK_HOME", sparkHome.toString());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1"); // loopback only
    builder.environment().put("SPARK_LOG_DIR", logs.toString());
    builder.environment().put("JAVA_HOME", BundleSubmit.javaHome());
    builder.environment().remove("SPARK_CONF_DIR");
    processes.add(builder.start());
  }

  private void awaitWorker() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    while (System.nanoTime() < deadline) {
      for (Process p : processes) {
        if (!p.isAlive()) {
          fail("a cluster process exited with code " + p.exitValue() + logTail());
        }
      }
      try {
        if (state().path("aliveworkers").asInt() == 1) {
          return;
        }
      } catch (IOException notYetListening) {
        // the master's web UI is not up yet
      }
      Thread.sleep(500);
    }
    fail("the master did not register the worker in " + START_SECONDS + " s" + logTail());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
