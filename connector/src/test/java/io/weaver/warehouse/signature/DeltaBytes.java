package io.weaver.warehouse.signature;

import io.weaver.catalyst.signature.SignatureEncoding;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.function.Consumer;

/**
 * The Lakehouse side: the bytes SignatureEncoding (catalyst-rules, the compatibility contract)
 * feeds its digest, captured instead of hashed, so tests compare encodings byte for byte.
 */
final class DeltaBytes {

  private DeltaBytes() {}

  /** A MessageDigest that records its input; digest() returns the recorded bytes. */
  private static final class Capture extends MessageDigest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Capture() {
      super("capture");
    }

    @Override
    protected void engineUpdate(byte input) {
      out.write(input);
    }

    @Override
    protected void engineUpdate(byte[] input, int offset, int len) {
      out.write(input, offset, len);
    }

    @Override
    protected byte[] engineDigest() {
      byte[] bytes = out.toByteArray();
      out.reset();
      return bytes;
    }

    @Override
    protected void engineReset() {
      out.reset();
    }
  }

  @SafeVarargs
  static byte[] of(Consumer<MessageDigest>... values) {
    Capture capture = new Capture();
    for (Consumer<MessageDigest> value : values) {
      value.accept(capture);
    }
    return capture.digest();
  }

  static Consumer<MessageDigest> nul() {
    return SignatureEncoding::putNull;
  }

  static Consumer<MessageDigest> string(String s) {
    // A string value is its UTF-8 bytes (docs/warehouse.md, "Row signature").
    return d -> SignatureEncoding.putBinary(d, s.getBytes(StandardCharsets.UTF_8));
  }

  static Consumer<MessageDigest> integer(long v) {
    return d -> SignatureEncoding.putLong(d, v);
  }

  static Consumer<MessageDigest> bool(boolean v) {
    return d -> SignatureEncoding.putBoolean(d, v);
  }

  static Consumer<MessageDigest> decimal(String v, int scale) {
    return d -> SignatureEncoding.putDecimal(d, new BigDecimal(v), scale);
  }

  static Consumer<MessageDigest> dbl(double v) {
    return d -> SignatureEncoding.putDouble(d, v);
  }

  static Consumer<MessageDigest> flt(float v) {
    return d -> SignatureEncoding.putFloat(d, v);
  }

  static Consumer<MessageDigest> date(LocalDate v) {
    return d -> SignatureEncoding.putDate(d, (int) v.toEpochDay());
  }

  /** A Spark timestamp (UTC micros) of a UTC wall-clock time. */
  static Consumer<MessageDigest> timestamp(LocalDateTime utc) {
    long micros = utc.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + utc.getNano() / 1000;
    return d -> SignatureEncoding.putTimestampMicros(d, micros);
  }

  static Consumer<MessageDigest> binary(byte[] v) {
    return d -> SignatureEncoding.putBinary(d, v);
  }

  static String sha256Hex(byte[] bytes) {
    MessageDigest sha = SignatureEncoding.newSha256();
    return HexFormat.of().formatHex(sha.digest(bytes));
  }
}
