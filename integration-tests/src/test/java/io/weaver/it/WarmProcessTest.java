package io.weaver.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/weaver}'s warm process (docs/decisions.md, "A warm process"), as a user meets it: the
 * first call starts it, later calls run in it with their own declarations and output, a usage error
 * is reported as before, another process that needs the lakehouse gets it from the idle warm
 * process, a caller that goes away (a Ctrl-C) ends the warm process with its call, and an idle one
 * exits by itself. Each step's process is identified by its pid: the lakehouse's metastore lock
 * names the process that ran a call's Spark session, and each warm process's log its own.
 */
class WarmProcessTest {
  @TempDir Path workspace;

  /** The user's cache folder (XDG_CACHE_HOME): the warm processes' sockets and logs. */
  @TempDir Path cache;

  private final List<Long> started = new ArrayList<>();

  @AfterEach
  void endWarmProcesses() {
    for (long pid : started) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    }
  }

  @Test
  void callsRunInTheWarmProcessWhichGivesWayToOthers() throws Exception {
    writeTable("(1, 'a'), (2, 'b')");

    // The first call starts a warm process and runs in it.
    Result first = weaver(Map.of(), "run");
    assertEquals(0, first.exit(), first.all());
    assertTrue(first.err().contains("starting a warm Weaver process"), first.err());
    assertTrue(first.out().contains("Shop.Customer.Copy"), first.out());
    long warm = holder();
    started.add(warm);
    assertTrue(
        servers().containsKey(warm), "the lakehouse's holder is the warm process: " + servers());

    // The next call runs in the same process, with the declaration as it is now.
    writeTable("(1, 'a'), (2, 'b'), (3, 'c')");
    Result second = weaver(Map.of(), "run", "--format", "json");
    assertEquals(0, second.exit(), second.all());
    assertFalse(second.err().contains("starting a warm Weaver process"), second.err());
    assertTrue(second.out().contains("\"rows_inserted\":1"), second.out());
    assertEquals(warm, holder(), "the second call ran in the warm process");

    // A usage error is the call's, with its exit code and message.
    Result usage = weaver(Map.of(), "run", "--no-such-option");
    assertEquals(2, usage.exit(), usage.all());
    assertTrue(usage.err().contains("unknown option '--no-such-option'"), usage.err());
    assertTrue(alive(warm));

    // A process of its own (WEAVER_WARM=off) on the same lakehouse: the idle warm process exits
    // and hands it over, instead of the call being refused.
    Result cold =
        weaver(
            Map.of("WEAVER_WARM", "off"),
            "sql",
            "--format",
            "json",
            "SELECT count(*) AS n FROM Shop.Customer.Copy");
    assertEquals(0, cold.exit(), cold.all());
    assertTrue(cold.out().contains("{\"n\":3}"), cold.out());
    assertTrue(exits(warm, 30), "the warm process gave the lakehouse up and exited");
    assertTrue(log(warm).contains("another process asked for the lakehouse"), log(warm));

    // A caller that goes away during its call (a Ctrl-C ends the client) ends the warm process
    // with the call, as it would have ended a process of its own; the lakehouse is free after.
    Process slow =
        start(
            Map.of(),
            "sql",
            "--format",
            "json",
            "SELECT sum(id % 7) AS s FROM range(0, 200000000000) WHERE id % 3 <> 5");
    long secondWarm = waitForHolder(slow);
    started.add(secondWarm);
    assertNotEquals(warm, secondWarm);
    Thread.sleep(3000); // the query is running
    // bin/weaver's own JVM: its client (the warm process it started is the other one).
    ProcessHandle client =
        ProcessHandle.of(slow.pid())
            .orElseThrow()
            .descendants()
            .filter(p -> p.pid() != secondWarm)
            .filter(p -> p.info().command().orElse("").endsWith("/java"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no client JVM under bin/weaver"));
    client.destroy();
    assertTrue(slow.waitFor(60, TimeUnit.SECONDS), "bin/weaver ends with its client");
    assertNotEquals(0, slow.exitValue());
    assertTrue(exits(secondWarm, 60), "the warm process ended with its caller's call");
    assertTrue(log(secondWarm).contains("the caller went away"), log(secondWarm));
    // Free: the lock a process takes before it opens the lakehouse's metastore is there to take
    // (a WEAVER_WARM=off call above showed what taking it means; this is the same lock).
    Path lockFile = workspace.resolve(".weaver/lakehouse/.spark-metastore/weaver.lock");
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
        FileLock free = channel.tryLock()) {
      assertNotNull(free, "the lakehouse is free after the warm process ended");
    }

    // An idle warm process exits by itself (here a call that never starts Spark started it).
    Set<Long> before = servers().keySet();
    Result idle = weaver(Map.of("WEAVER_WARM_IDLE", "2"), "load", "--no-such-option");
    assertEquals(2, idle.exit(), idle.all());
    Set<Long> now = new HashSet<>(servers().keySet());
    now.removeAll(before);
    assertEquals(1, now.size(), "one new warm process: " + servers());
    long idler = now.iterator().next();
    started.add(idler);
    assertTrue(exits(idler, 30), "the idle warm process exited");
    assertTrue(log(idler).contains("idle for 2 s: exiting"), log(idler));
  }

  private void writeTable(String rows) throws IOException {
    Path table = workspace.resolve("Lakehouse/Shop/Tables/Customer.Copy.sql");
    Files.createDirectories(table.getParent());
    Files.writeString(
        table,
        "/*\nTable ID: Customer.Copy\nDescription: Customers, copied.\nPrimary key: id\n*/\n"
            + "select id, name from values "
            + rows
            + " as t(id, name);\n");
  }

  /** The pid the lakehouse's metastore lock names: the process that ran the last call's Spark. */
  private long holder() throws IOException {
    Path lock = workspace.resolve(".weaver/lakehouse/.spark-metastore/weaver.lock");
    return Long.parseLong(Files.readString(lock).lines().findFirst().orElse("").strip());
  }

  /** The holder, once a call just started has taken the lakehouse. */
  private long waitForHolder(Process call) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    Path lock = workspace.resolve(".weaver/lakehouse/.spark-metastore/weaver.lock");
    long old = holder();
    while (System.nanoTime() < deadline) {
      if (!call.isAlive()) {
        fail("the call ended early: exit " + call.exitValue());
      }
      String text = Files.exists(lock) ? Files.readString(lock) : "";
      if (text.contains("warm ") && holder() != old && servers().containsKey(holder())) {
        return holder();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no warm process took the lakehouse in 3 minutes");
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static boolean exits(long pid, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      if (!alive(pid)) {
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }

  /** The warm processes this test's cache has seen, by pid, with their logs. */
  private Map<Long, Path> servers() throws IOException {
    Path folder = cache.resolve("weaver/warm");
    if (!Files.isDirectory(folder)) {
      return Map.of();
    }
    Map<Long, Path> found = new HashMap<>();
    try (Stream<Path> logs = Files.list(folder)) {
      for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
        for (String line : Files.readAllLines(log)) {
          String[] words = line.split(" ");
          if (words.length > 3 && words[1].equals("pid") && words[3].equals("serves")) {
            found.put(Long.parseLong(words[2]), log);
          }
        }
      }
    }
    return found;
  }

  private String log(long pid) throws IOException {
    Path log = servers().get(pid);
    return log == null ? "(no log for pid " + pid + ")" : Files.readString(log);
  }

  record Result(int exit, String out, String err) {
    String all() {
      return out + err;
    }
  }

  private Result weaver(Map<String, String> env, String... args) throws Exception {
    Process process = start(env, args);
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("bin/weaver did not finish in 10 minutes");
    }
    return new Result(
        process.exitValue(),
        Files.readString(cache.resolve("out.txt"), StandardCharsets.UTF_8),
        Files.readString(cache.resolve("err.txt"), StandardCharsets.UTF_8));
  }

  /** Starts bin/weaver in the workspace folder, as a user in a terminal there would. */
  private Process start(Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(BinWeaverCheckTest.projectRoot().resolve("bin/weaver").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workspace.toFile())
            .redirectOutput(cache.resolve("out.txt").toFile())
            .redirectError(cache.resolve("err.txt").toFile());
    builder.environment().put("XDG_CACHE_HOME", cache.toString());
    // No class-data archive: with a cache of its own, each cold call would write one (about 20 s).
    builder.environment().put("WEAVER_CDS", "off");
    builder.environment().remove("WEAVER_WARM");
    builder.environment().remove("WEAVER_WARM_IDLE");
    builder.environment().putAll(env);
    return builder.start();
  }
}
