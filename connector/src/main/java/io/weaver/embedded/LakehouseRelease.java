package io.weaver.embedded;

import io.weaver.session.WeaverConf;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Asks the warm Weaver process that holds a lakehouse's metastore, while it waits idle for its next
 * call, to exit, so that another process (a cold {@code bin/weaver}, spark-submit, a notebook's
 * embedded session) can take the lakehouse (docs/decisions.md, "A warm process"). The warm process
 * writes its socket into the metastore's lock file; a process that finds the lock held reads it
 * there and asks. The warm process decides alone whether it is idle: a call it is running is never
 * stopped by someone else's request.
 */
public final class LakehouseRelease {
  /** The system property a warm process is started with: its socket. */
  public static final String SOCKET_PROPERTY = WeaverConf.WARM_SOCKET_PROPERTY;

  /** The request: the first byte a client sends. */
  public static final byte RELEASE = 'R';

  /** The answers: exiting (or already exiting), or busy with a call. */
  public static final byte EXITING = 'Y';

  public static final byte BUSY = 'N';

  /** The lock file's line that names a warm holder's socket. */
  static final String LOCK_LINE_PREFIX = "warm ";

  private LakehouseRelease() {}

  /** This JVM's socket when it is a warm process; it goes into the lock file it writes. */
  static Optional<String> ownSocket() {
    return Optional.ofNullable(System.getProperty(SOCKET_PROPERTY)).filter(s -> !s.isBlank());
  }

  /** The socket a lock file's text names, when its holder is a warm process. */
  static Optional<Path> socketIn(String lockText) {
    return lockText
        .lines()
        .filter(line -> line.startsWith(LOCK_LINE_PREFIX))
        .map(line -> Path.of(line.substring(LOCK_LINE_PREFIX.length()).strip()))
        .findFirst();
  }

  /** What a warm holder answered. */
  enum Answer {
    /** It exits (or was exiting already): its lock is free within seconds. */
    EXITING,
    /** It is running a call, or the socket is not one of this user's warm processes. */
    BUSY,
    /** No one listens on the socket: the holder is exiting, or died and the lock goes with it. */
    NO_ANSWER
  }

  /**
   * Asks the warm process listening on {@code socket} to exit. A {@code socket} that is not a
   * socket of this user's warm processes is not connected to (a lock file is no reason to connect
   * anywhere) and counts as {@link Answer#BUSY}.
   */
  static Answer ask(Path socket) {
    if (!isWarmSocket(socket)) {
      return Answer.BUSY;
    }
    try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      channel.write(ByteBuffer.wrap(new byte[] {RELEASE}));
      ByteBuffer answer = ByteBuffer.allocate(1);
      while (answer.hasRemaining()) {
        if (channel.read(answer) < 0) {
          return Answer.NO_ANSWER;
        }
      }
      return answer.get(0) == EXITING ? Answer.EXITING : Answer.BUSY;
    } catch (IOException | RuntimeException e) {
      return Answer.NO_ANSWER;
    }
  }

  /** A socket file under a {@code weaver/warm} folder, owned by the user this JVM runs as. */
  private static boolean isWarmSocket(Path socket) {
    Path folder = socket.getParent();
    if (folder == null
        || !folder.getFileName().toString().equals("warm")
        || folder.getParent() == null
        || !folder.getParent().getFileName().toString().equals("weaver")
        || !socket.getFileName().toString().endsWith(".sock")) {
      return false;
    }
    try {
      return Files.getOwner(socket).getName().equals(System.getProperty("user.name"));
    } catch (IOException e) {
      return false;
    }
  }
}
