package io.weaver.catalyst.signature;

import java.security.MessageDigest;
import java.util.Arrays;

/**
 * A {@link MessageDigest} that records the bytes fed to it instead of hashing them, so that map
 * entries can be encoded once, sorted by their encoded keys, and then replayed into the real
 * digest. {@link RowBuffer} extends it to hash a whole row's recorded bytes at once.
 */
class ByteCapture extends MessageDigest {

  byte[] buffer = new byte[64];
  int size;

  ByteCapture() {
    this("weaver-capture");
  }

  ByteCapture(String algorithm) {
    super(algorithm);
  }

  /** The bytes captured since the last call, and starts afresh. */
  byte[] take() {
    byte[] bytes = Arrays.copyOf(buffer, size);
    size = 0;
    return bytes;
  }

  @Override
  protected void engineUpdate(byte input) {
    ensure(1);
    buffer[size++] = input;
  }

  @Override
  protected void engineUpdate(byte[] input, int offset, int len) {
    ensure(len);
    System.arraycopy(input, offset, buffer, size, len);
    size += len;
  }

  @Override
  protected byte[] engineDigest() {
    return take();
  }

  @Override
  protected void engineReset() {
    size = 0;
  }

  final void ensure(int extra) {
    if (size + extra > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + extra));
    }
  }
}
