package io.weaver.cli;

import io.weaver.embedded.EmbeddedSession;
import io.weaver.embedded.LakehouseRelease;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.Charset;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.SparkSession;
import scala.Option;

/**
 * A warm Weaver process (docs/decisions.md, "A warm process"): a JVM that {@code bin/weaver} starts
 * once and that then runs its calls, so that a call pays for its work and not for a cold JVM (class
 * loading, the JIT compiling Spark, Delta and Weaver): a no-change {@code bin/weaver run} of the
 * example takes about a quarter of a cold one (docs/performance.md, "A warm process").
 *
 * <p>{@code WarmServer SOCKET IDLE_SECONDS}, run with the Java options, class path and environment
 * of the calls it serves ({@code bin/weaver} names the socket after all of them and the working
 * folder, so a call with another of them gets another process). What it keeps between calls is the
 * loaded and compiled code only:
 *
 * <ul>
 *   <li>one call at a time; another caller is declined at once and runs in a process of its own;
 *   <li>each call starts its own Spark session and stops it at its end; system properties, {@code
 *       System.out} and {@code System.err} are put back as they were before it;
 *   <li>it exits when idle for {@code IDLE_SECONDS}, after {@link #MAX_CALLS} calls, after a call
 *       that ended in a JVM error or moved it to another lakehouse's metastore, when its caller
 *       goes away during a call (a Ctrl-C: the call stops as a cold process's would), and when
 *       another process asks for the lakehouse it holds while it is idle ({@link
 *       LakehouseRelease}).
 * </ul>
 */
public final class WarmServer {
  /** Calls served before the process exits, so that whatever a long life accumulates is bounded. */
  static final int MAX_CALLS = 50;

  /** The exit status when the caller went away during a call (as a Ctrl-C'd JVM's). */
  static final int CALLER_GONE = 130;

  private final Path socket;
  private final long idleNanos;
  private final String folder = Path.of("").toAbsolutePath().toString();
  private final PrintStream log = System.err;

  private final Object state = new Object();
  private boolean busy;
  private boolean exiting;
  private long idleSince = System.nanoTime();
  private int calls;
  private Optional<Path> metastore = Optional.empty();
  private Path scratchRoot;

  private WarmServer(Path socket, long idleSeconds) {
    this.socket = socket;
    this.idleNanos = TimeUnit.SECONDS.toNanos(idleSeconds);
  }

  public static void main(String[] argv) throws IOException {
    if (argv.length != 2) {
      System.err.println("usage: WarmServer SOCKET IDLE_SECONDS");
      System.exit(WeaverCli.USAGE);
    }
    new WarmServer(Path.of(argv[0]), Long.parseLong(argv[1])).serve();
  }

  private void serve() throws IOException {
    // One server per socket: a second one started at the same moment (two calls) leaves.
    Path lockFile = socket.resolveSibling(socket.getFileName() + ".lock");
    FileChannel lockChannel =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock = lockChannel.tryLock();
    if (lock == null) {
      log("another warm process serves " + socket + "; this one leaves");
      System.exit(0);
    }
    Files.deleteIfExists(socket); // a socket file left by a process that died
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    Files.deleteIfExists(socket);
                  } catch (IOException ignored) {
                    // the next server removes it
                  }
                }));
    log(
        "pid "
            + ProcessHandle.current().pid()
            + " serves "
            + socket
            + " for "
            + folder
            + "; exits after "
            + TimeUnit.NANOSECONDS.toSeconds(idleNanos)
            + " s idle");
    Thread watchdog = new Thread(this::exitWhenIdle, "weaver-warm-idle");
    watchdog.setDaemon(true);
    watchdog.start();
    while (true) {
      SocketChannel channel = server.accept();
      Thread handler = new Thread(() -> handle(channel), "weaver-warm-call");
      handler.start();
    }
  }

  private void exitWhenIdle() {
    while (true) {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        return;
      }
      synchronized (state) {
        if (!busy && !exiting && System.nanoTime() - idleSince > idleNanos) {
          exiting = true;
          log("idle for " + TimeUnit.NANOSECONDS.toSeconds(idleNanos) + " s: exiting");
          System.exit(0);
        }
      }
    }
  }

  private void handle(SocketChannel channel) {
    boolean exitAfter = false;
    try (channel) {
      DataInputStream in = WarmWire.input(channel);
      DataOutputStream out = WarmWire.output(channel);
      byte request = in.readByte();
      if (request == LakehouseRelease.RELEASE) {
        release(out);
        return;
      }
      if (request != WarmWire.CALL) {
        return;
      }
      WarmWire.Call call = WarmWire.Call.readFrom(in);
      String declined = take(call);
      if (declined != null) {
        byte[] reason = declined.getBytes(Charset.defaultCharset());
        WarmWire.frame(out, WarmWire.DECLINED, reason, 0, reason.length);
        return;
      }
      AtomicBoolean running = new AtomicBoolean(true);
      try {
        WarmWire.frame(out, WarmWire.STARTED, new byte[0], 0, 0);
        CallOutcome outcome = run(call, running, in, out);
        exitAfter = outcome.exitAfter();
        running.set(false); // before the exit code: the caller closes its end on reading it
        WarmWire.exit(out, outcome.code());
      } finally {
        running.set(false);
        exitAfter |= finish();
      }
    } catch (IOException e) {
      log("a connection ended: " + e);
    }
    if (exitAfter) {
      System.exit(0);
    }
  }

  /** Another process asks for the lakehouse: exit unless a call is running. */
  private void release(DataOutputStream out) throws IOException {
    boolean exit;
    synchronized (state) {
      exit = !busy;
      exiting |= exit;
    }
    out.writeByte(exit ? LakehouseRelease.EXITING : LakehouseRelease.BUSY);
    out.flush();
    if (exit) {
      log("another process asked for the lakehouse: exiting");
      System.exit(0);
    }
  }

  /** Takes {@code call}, or says why not. */
  private String take(WarmWire.Call call) {
    synchronized (state) {
      if (exiting) {
        return "the warm process is exiting";
      }
      if (busy) {
        return "the warm process is running another call";
      }
      if (call.version() != WarmWire.VERSION) {
        return "a client of another version";
      }
      if (!call.workingFolder().equals(folder)) {
        return "a call from another folder";
      }
      busy = true;
      return null;
    }
  }

  /** Ends a call; true when the process should exit now. */
  private boolean finish() {
    synchronized (state) {
      calls++;
      Optional<Path> held = EmbeddedSession.heldMetastore();
      boolean moved = metastore.isPresent() && !metastore.equals(held);
      if (metastore.isEmpty()) {
        metastore = held;
      }
      boolean exit = calls >= MAX_CALLS || moved;
      if (exit) {
        exiting = true;
        log(moved ? "a call moved to another lakehouse: exiting" : calls + " calls: exiting");
      }
      busy = false;
      idleSince = System.nanoTime();
      return exit;
    }
  }

  record CallOutcome(int code, boolean exitAfter) {}

  /** Runs the call with its own stdout, stderr and system properties, and its own Spark session. */
  private CallOutcome run(
      WarmWire.Call call, AtomicBoolean running, InputStream in, DataOutputStream out) {
    Thread watcher = new Thread(() -> exitWhenCallerLeaves(running, in), "weaver-warm-caller");
    watcher.setDaemon(true);
    watcher.start();
    Properties before = (Properties) System.getProperties().clone();
    Optional<Path> scratch = callScratch();
    Charset charset = Charset.defaultCharset();
    PrintStream callOut =
        new PrintStream(new WarmWire.FrameStream(out, WarmWire.OUT), true, charset);
    PrintStream callErr =
        new PrintStream(new WarmWire.FrameStream(out, WarmWire.ERR), true, charset);
    PrintStream ownOut = System.out;
    PrintStream ownErr = System.err;
    System.setOut(callOut);
    System.setErr(callErr);
    long start = System.nanoTime();
    try {
      int code =
          WeaverCli.run(call.args().toArray(String[]::new), callOut, callErr, call.terminal());
      return new CallOutcome(code, false);
    } catch (Throwable t) { // an Error: the JVM may be unsound, so this is its last call
      t.printStackTrace(callErr);
      callErr.println("weaver: " + t);
      return new CallOutcome(WeaverCli.FAILED, true);
    } finally {
      stopSpark();
      callOut.flush();
      callErr.flush();
      System.setOut(ownOut);
      System.setErr(ownErr);
      restore(before);
      scratch.ifPresent(this::deleteTree);
      log(
          "call "
              + String.join(" ", call.args())
              + " took "
              + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
              + " ms");
    }
  }

  /**
   * The caller sends nothing after its call, so its stream ends only when it went away (a Ctrl-C, a
   * killed terminal): the call is stopped as it would have been in a cold process, by exiting.
   */
  private void exitWhenCallerLeaves(AtomicBoolean running, InputStream in) {
    try {
      if (in.read() >= 0) {
        return; // not a caller of this protocol; the call runs on
      }
    } catch (IOException closed) {
      // the socket was closed: by this process after the call, or by the caller
    }
    synchronized (state) {
      if (!running.get()) {
        return; // the call had ended
      }
      exiting = true;
    }
    log("the caller went away during the call: exiting");
    System.exit(CALLER_GONE);
  }

  /** Stops the call's Spark session, so the next call starts its own with its own settings. */
  private static void stopSpark() {
    Option<SparkSession> active = SparkSession.getActiveSession();
    if (active.isDefined()) {
      active.get().stop();
    }
    Option<SparkSession> fallback = SparkSession.getDefaultSession();
    if (fallback.isDefined()) {
      fallback.get().stop();
    }
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
  }

  /**
   * A folder for the call's Spark scratch files ({@code spark.local.dir}), unless the user chose
   * where they go. A new process's are deleted at its exit; a warm process's go with their call.
   * The calls' folders share one root of the process, deleted again at its exit, for what Spark's
   * threads might still write after a call's session stopped.
   */
  private Optional<Path> callScratch() {
    if (System.getProperty("spark.local.dir") != null
        || System.getenv("SPARK_LOCAL_DIRS") != null) {
      return Optional.empty();
    }
    try {
      synchronized (state) {
        if (scratchRoot == null) {
          Path root = Files.createTempDirectory("weaver-warm-");
          Runtime.getRuntime()
              .addShutdownHook(new Thread(() -> deleteTree(root), "weaver-warm-scratch"));
          scratchRoot = root;
        }
      }
      Path dir = Files.createTempDirectory(scratchRoot, "call-");
      System.setProperty("spark.local.dir", dir.toString());
      return Optional.of(dir);
    } catch (IOException e) {
      log("no scratch folder for the call: " + e);
      return Optional.empty();
    }
  }

  /** Deletes a scratch folder; what Spark removed meanwhile is simply gone. */
  private void deleteTree(Path dir) {
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path folder, IOException e)
                throws IOException {
              Files.deleteIfExists(folder);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      log("could not delete the scratch folder " + dir + ": " + e);
    }
  }

  /**
   * Puts system properties back as they were before a call: changed and removed ones get their old
   * value, and added ones go (Spark's {@code SparkConf} reads every {@code spark.*} property, so
   * one left behind would reach the next call's session).
   */
  private void restore(Properties before) {
    Properties now = System.getProperties();
    for (String name : now.stringPropertyNames()) {
      if (!before.containsKey(name)) {
        System.clearProperty(name);
      }
    }
    for (String name : before.stringPropertyNames()) {
      String value = before.getProperty(name);
      if (!value.equals(System.getProperty(name))) {
        System.setProperty(name, value);
      }
    }
  }

  private void log(String message) {
    log.println(LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + " " + message);
    log.flush();
  }
}
