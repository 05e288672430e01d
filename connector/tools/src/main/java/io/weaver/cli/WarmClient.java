package io.weaver.cli;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bin/weaver}'s side of a warm process (docs/decisions.md, "A warm process"): sends the call
 * to the warm Weaver process listening on a socket, writes what the call prints to this process's
 * stdout and stderr, and exits with the call's code. It loads no Spark class, so it starts in a
 * fraction of a second.
 *
 * <p>{@code WarmClient SOCKET WAIT_SECONDS SERVER_PID|- -- ARGUMENTS...}: waits up to {@code
 * WAIT_SECONDS} for the socket to answer while the server process {@code SERVER_PID} (just started)
 * is alive. Besides the call's own codes it exits with {@link #NO_PROCESS} and {@link #DECLINED},
 * after which {@code bin/weaver} starts a warm process or runs the call itself. A Ctrl-C ends this
 * process; the warm process sees its caller gone and exits too, as a cold process would have.
 */
public final class WarmClient {
  /** No warm process answered on the socket. */
  static final int NO_PROCESS = 75;

  /** The warm process declined the call (busy with another, or exiting): run it elsewhere. */
  static final int DECLINED = 76;

  private WarmClient() {}

  public static void main(String[] argv) {
    System.exit(call(argv));
  }

  static int call(String[] argv) {
    if (argv.length < 4 || !argv[3].equals("--")) {
      System.err.println("usage: WarmClient SOCKET WAIT_SECONDS SERVER_PID|- -- ARGUMENTS...");
      return WeaverCli.USAGE;
    }
    Path socket = Path.of(argv[0]);
    SocketChannel channel = connect(socket, Long.parseLong(argv[1]), argv[2]);
    if (channel == null) {
      return NO_PROCESS;
    }
    boolean started = false;
    try (channel) {
      DataOutputStream out = WarmWire.output(channel);
      DataInputStream in = WarmWire.input(channel);
      List<String> args = List.of(argv).subList(4, argv.length);
      boolean terminal = Terminal.thisProcessHasOne();
      new WarmWire.Call(
              WarmWire.VERSION,
              Path.of("").toAbsolutePath().toString(),
              args,
              new Terminal(terminal, terminal))
          .writeTo(out);
      while (true) {
        byte kind = in.readByte();
        byte[] payload = in.readNBytes(in.readInt());
        switch (kind) {
          case WarmWire.STARTED -> started = true;
          case WarmWire.OUT -> {
            System.out.write(payload);
            System.out.flush();
          }
          case WarmWire.ERR -> {
            System.err.write(payload);
            System.err.flush();
          }
          case WarmWire.EXIT -> {
            System.out.flush();
            return WarmWire.exitCode(payload);
          }
          case WarmWire.DECLINED -> {
            return DECLINED;
          }
          default -> throw new IOException("an unknown frame " + kind);
        }
      }
    } catch (IOException closed) { // EOFException included: the socket closed
      return ended(started, socket);
    }
  }

  /** The socket closed before the exit code: before the call began, or during it. */
  private static int ended(boolean started, Path socket) {
    if (!started) {
      return DECLINED; // the process was exiting; the call never began
    }
    String name = socket.getFileName().toString();
    Path log = socket.resolveSibling(name.substring(0, name.length() - ".sock".length()) + ".log");
    System.err.println(
        "weaver: the warm Weaver process ended during this call (its log: "
            + log
            + "). A load it did not finish wrote nothing; run the command again"
            + " (WEAVER_WARM=off runs it in a process of its own)");
    return WeaverCli.FAILED;
  }

  /**
   * A connection to the socket; null when none answers within {@code waitSeconds}, or as soon as
   * the server process {@code serverPid} has exited.
   */
  private static SocketChannel connect(Path socket, long waitSeconds, String serverPid) {
    long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
    while (true) {
      try {
        return SocketChannel.open(UnixDomainSocketAddress.of(socket));
      } catch (IOException | RuntimeException notYet) {
        boolean serverGone =
            !serverPid.equals("-")
                && !ProcessHandle.of(Long.parseLong(serverPid))
                    .map(ProcessHandle::isAlive)
                    .orElse(false);
        if (waitSeconds <= 0 || serverGone || System.nanoTime() > deadline) {
          return null;
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return null;
        }
      }
    }
  }
}
