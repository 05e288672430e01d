package io.weaver.catalyst.signature;

import java.io.Serializable;
import java.security.MessageDigest;

/**
 * Encodes one non-null Catalyst internal value of a fixed type into a digest, following {@link
 * SignatureEncoding}. Built once per column type by {@link CatalystEncoding#writerFor}; public only
 * because generated code calls it for nested types.
 */
@FunctionalInterface
public interface ValueWriter extends Serializable {

  void write(MessageDigest digest, Object value);
}
