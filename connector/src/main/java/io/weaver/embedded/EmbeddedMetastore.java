package io.weaver.embedded;

import io.weaver.session.WeaverConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded session's persistent {@code spark_catalog}: Spark's Hive support with Hive's
 * embedded Derby metastore at {@code <lakehouse>/.spark-metastore/metastore_db}, so a table created
 * in {@code spark_catalog} by one {@code bin/weaver} process is there for the next.
 *
 * <p>Embedded Derby admits one JVM per database. A Weaver process holds {@code
 * <lakehouse>/.spark-metastore/weaver.lock} for its lifetime; a second process on the same
 * lakehouse is refused before Spark starts, with the holder's pid and what to do
 * (docs/decisions.md, Command line). The system property {@value #MODE_PROPERTY}{@code =memory}
 * keeps {@code spark_catalog} in memory for one process instead (no lock, nothing persists).
 */
final class EmbeddedMetastore {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMetastore.class);

  /** The metastore's folder under the lakehouse root. */
  static final String DIR = ".spark-metastore";

  /** Derby's database folder inside {@link #DIR}. */
  static final String DATABASE = "metastore_db";

  /**
   * Hive's session folder for downloaded resources inside {@link #DIR}. Hive's default, {@code
   * <java.io.tmpdir>/<session id>_resources}, is created by every session and never deleted (Spark
   * does not close Hive's session), so each run would leave one behind; here one folder serves
   * every run, as the lock admits one process at a time.
   */
  static final String RESOURCES = "hive-resources";

  /** The file a Weaver process locks while it uses the metastore. */
  static final String LOCK_FILE = "weaver.lock";

  /** {@code hive} (default) or {@code memory}: where the embedded {@code spark_catalog} lives. */
  static final String MODE_PROPERTY = WeaverConf.METASTORE_PROPERTY;

  /** What {@code enableHiveSupport()} requires on the classpath. */
  private static final String[] HIVE_CLASSES = {
    "org.apache.spark.sql.hive.HiveSessionStateBuilder", "org.apache.hadoop.hive.conf.HiveConf"
  };

  /** How long a process waits for an idle warm holder to exit and free the lock. */
  private static final long RELEASE_WAIT_MS = 30_000;

  /** The lock this JVM holds (the first embedded session's metastore), kept until exit. */
  private static FileChannel heldChannel;

  private static Path heldDir;

  private EmbeddedMetastore() {}

  /**
   * The session confs for a Derby metastore under {@code lakehouseRoot}, after taking its lock; no
   * confs (an in-memory {@code spark_catalog}) when Hive's classes are absent or {@value
   * #MODE_PROPERTY} says {@code memory}.
   *
   * @throws IllegalStateException when another process uses this lakehouse's metastore
   */
  static Map<String, String> confs(Path lakehouseRoot) {
    Map<String, String> confs = new LinkedHashMap<>();
    String mode = WeaverConf.metastoreMode();
    if (mode.equals("memory")) {
      LOG.info("spark_catalog is in memory for this process ({}=memory)", MODE_PROPERTY);
      return confs;
    }
    if (!mode.equals("hive")) {
      throw new IllegalArgumentException(
          MODE_PROPERTY + " must be hive or memory, not '" + mode + "'");
    }
    if (!hiveOnClasspath()) {
      LOG.info(
          "spark_catalog is in memory (its tables last for this process only): Spark's Hive"
              + " support (org.apache.spark:spark-hive_2.13) is not on the classpath");
      return confs;
    }
    Path dir = lakehouseRoot.resolve(DIR);
    lock(dir);
    confs.put("spark.sql.catalogImplementation", "hive");
    confs.put(
        "spark.hadoop.javax.jdo.option.ConnectionURL",
        "jdbc:derby:;databaseName=" + dir.resolve(DATABASE) + ";create=true");
    confs.put("spark.hadoop.hive.downloaded.resources.dir", dir.resolve(RESOURCES).toString());
    return confs;
  }

  static boolean hiveOnClasspath() {
    for (String name : HIVE_CLASSES) {
      if (!EmbeddedSession.isOnClasspath(name)) {
        return false;
      }
    }
    return true;
  }

  /** Takes {@code dir}'s lock for this JVM, and points derby.log there (not the working folder). */
  private static synchronized void lock(Path dir) {
    if (dir.equals(heldDir)) {
      return;
    }
    Path lockFile = dir.resolve(LOCK_FILE);
    FileChannel channel = null;
    try {
      Files.createDirectories(dir);
      channel =
          FileChannel.open(
              lockFile,
              StandardOpenOption.CREATE,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel);
      String holder = "";
      boolean warmBusy = false;
      if (lock == null) {
        String holderText = Files.readString(lockFile, StandardCharsets.UTF_8);
        holder = holderText.lines().findFirst().orElse("").strip();
        Optional<Path> warm = LakehouseRelease.socketIn(holderText);
        if (warm.isPresent()) {
          LakehouseRelease.Answer answer = LakehouseRelease.ask(warm.get());
          warmBusy = answer == LakehouseRelease.Answer.BUSY;
          if (!warmBusy) {
            LOG.info(
                "waiting for the idle warm Weaver process (pid {}) to release {}", holder, dir);
            lock = waitForLock(channel);
          }
        }
      }
      if (lock == null) {
        channel.close();
        throw new IllegalStateException(
            "the metastore "
                + dir.resolve(DATABASE)
                + " is in use by another process"
                + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                + (warmBusy ? ", a warm Weaver process running another call," : "")
                + ", which holds "
                + lockFile
                + "; its embedded Derby database allows one process at a time. Wait for that"
                + " process to finish, or give this command another --lakehouse (or"
                + " WEAVER_JAVA_OPTS=-D"
                + MODE_PROPERTY
                + "=memory for an in-memory spark_catalog that does not persist)");
      }
      channel.truncate(0);
      // The holder's pid, and a warm process's socket, through which another process asks it to
      // release the lakehouse while it is idle (LakehouseRelease).
      String text =
          ProcessHandle.current().pid()
              + LakehouseRelease.ownSocket()
                  .map(socket -> "\n" + LakehouseRelease.LOCK_LINE_PREFIX + socket)
                  .orElse("");
      channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
      channel.force(false);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("cannot lock the metastore at " + lockFile, e);
    }
    if (heldChannel != null) {
      closeQuietly(heldChannel); // an earlier embedded session of this JVM, already stopped
    }
    heldChannel = channel;
    heldDir = dir;
    if (System.getProperty("derby.system.home") == null) {
      System.setProperty("derby.system.home", dir.toString());
    }
  }

  /** The lock, or null when another process holds it. */
  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null; // another channel of this JVM holds it: the same refusal applies
    }
  }

  /**
   * The lock once a warm holder that is exiting has let it go; null after {@link #RELEASE_WAIT_MS}
   * (a holder whose exit hangs is treated as any other holder).
   */
  private static FileLock waitForLock(FileChannel channel) throws IOException {
    long deadline = System.nanoTime() + RELEASE_WAIT_MS * 1_000_000L;
    while (System.nanoTime() < deadline) {
      FileLock lock = tryLock(channel);
      if (lock != null) {
        return lock;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return null;
  }

  /**
   * The metastore folder this JVM holds, if any: a warm process ends when a call moved it to
   * another lakehouse, since Derby keeps the first one's database open until the JVM exits.
   */
  static synchronized Optional<Path> heldDirectory() {
    return Optional.ofNullable(heldDir);
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing releases the lock; nothing else to do
      }
    }
  }
}
