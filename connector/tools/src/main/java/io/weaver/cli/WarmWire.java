package io.weaver.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link WarmClient} and {@link WarmServer} say to each other over the warm process's socket
 * (docs/decisions.md, "A warm process").
 *
 * <p>A call: the client sends {@link #CALL}, {@link #VERSION}, its working folder, its arguments
 * and whether its stdout and stderr are a terminal. The server answers with frames, each a kind
 * byte and a length-prefixed payload: {@link #STARTED}, {@link #OUT} and {@link #ERR} bytes as the
 * call writes them, then {@link #EXIT} with the exit code; or at once {@link #DECLINED} with the
 * reason, and the client runs the call in a process of its own. A release ({@code
 * LakehouseRelease}) is the other request.
 */
final class WarmWire {
  /** Raised whenever the messages change: a client and a server of different builds decline. */
  static final int VERSION = 1;

  static final byte CALL = 'C';

  static final byte OUT = 1;
  static final byte ERR = 2;
  static final byte EXIT = 3;
  static final byte DECLINED = 4;

  /** The server took the call: from here on, a closed socket means the call did not finish. */
  static final byte STARTED = 5;

  /** No string on the wire is longer (a command line's arguments are far shorter). */
  private static final int MAX_STRING_BYTES = 16 << 20;

  private WarmWire() {}

  /** A call as the client sends it. */
  record Call(int version, String workingFolder, List<String> args, Terminal terminal) {
    void writeTo(DataOutputStream out) throws IOException {
      out.writeByte(CALL);
      out.writeInt(version);
      writeString(out, workingFolder);
      out.writeInt(args.size());
      for (String arg : args) {
        writeString(out, arg);
      }
      out.writeBoolean(terminal.stdout());
      out.writeBoolean(terminal.stderr());
      out.flush();
    }

    /** Reads a call whose {@link #CALL} byte was read already. */
    static Call readFrom(DataInputStream in) throws IOException {
      int version = in.readInt();
      if (version != VERSION) {
        return new Call(version, "", List.of(), new Terminal(false, false));
      }
      String folder = readString(in);
      int count = in.readInt();
      if (count < 0 || count > 10_000) {
        throw new IOException("a call with " + count + " arguments");
      }
      List<String> args = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        args.add(readString(in));
      }
      Terminal terminal = new Terminal(in.readBoolean(), in.readBoolean());
      return new Call(version, folder, args, terminal);
    }
  }

  static void writeString(DataOutputStream out, String value) throws IOException {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  static String readString(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > MAX_STRING_BYTES) {
      throw new IOException("a string of " + length + " bytes");
    }
    return new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  /** Writes one frame; frames of several threads (a call's stdout and stderr) never interleave. */
  static void frame(DataOutputStream out, byte kind, byte[] bytes, int offset, int length)
      throws IOException {
    synchronized (out) {
      out.writeByte(kind);
      out.writeInt(length);
      out.write(bytes, offset, length);
      out.flush();
    }
  }

  /** The exit frame: the call's code. */
  static void exit(DataOutputStream out, int code) throws IOException {
    frame(out, EXIT, ByteBuffer.allocate(Integer.BYTES).putInt(code).array(), 0, Integer.BYTES);
  }

  /** The code an exit frame's payload carries. */
  static int exitCode(byte[] payload) {
    return ByteBuffer.wrap(payload).getInt();
  }

  /**
   * The socket's input. Not {@code Channels.newInputStream}: its streams hold the channel's
   * blocking lock while they wait, so a read waiting for the caller to leave would block the call's
   * writes; the channel itself reads and writes concurrently.
   */
  static DataInputStream input(SocketChannel channel) {
    InputStream raw =
        new InputStream() {
          @Override
          public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
          }

          @Override
          public int read(byte[] bytes, int offset, int length) throws IOException {
            return length == 0 ? 0 : channel.read(ByteBuffer.wrap(bytes, offset, length));
          }
        };
    return new DataInputStream(new BufferedInputStream(raw));
  }

  /** The socket's output (see {@link #input}). */
  static DataOutputStream output(SocketChannel channel) {
    OutputStream raw =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] bytes, int offset, int length) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
            while (buffer.hasRemaining()) {
              channel.write(buffer);
            }
          }
        };
    return new DataOutputStream(new BufferedOutputStream(raw));
  }

  /** A call's stdout or stderr: each write is sent as one frame of {@code kind}. */
  static final class FrameStream extends OutputStream {
    private final DataOutputStream wire;
    private final byte kind;

    FrameStream(DataOutputStream wire, byte kind) {
      this.wire = wire;
      this.kind = kind;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      if (length > 0) {
        frame(wire, kind, bytes, offset, length);
      }
    }
  }
}
