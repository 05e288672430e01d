package io.weaver.catalyst.signature;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Shorthands of {@link SignatureEncoding} the tests use and the product does not. */
final class TestEncodings {
  private TestEncodings() {}

  /** A String value: its UTF-8 bytes, as a scalar. */
  static void putString(MessageDigest digest, String value) {
    SignatureEncoding.putBinary(digest, value.getBytes(StandardCharsets.UTF_8));
  }

  /** {@link SignatureEncoding#finishHex} as a {@code String}. */
  static String finishHexString(MessageDigest digest) {
    return new String(SignatureEncoding.finishHex(digest), StandardCharsets.US_ASCII);
  }
}
