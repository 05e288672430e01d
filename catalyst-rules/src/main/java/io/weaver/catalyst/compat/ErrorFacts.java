package io.weaver.catalyst.compat;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The facts of one error, by {@link ErrorParameter}. Built where the error is thrown, so a missing
 * value must not turn the error into another: a null becomes the empty string.
 */
public final class ErrorFacts {
  private ErrorFacts() {}

  public static Map<ErrorParameter, String> of(ErrorParameter k1, Object v1) {
    return Collections.unmodifiableMap(with(new EnumMap<>(ErrorParameter.class), k1, v1));
  }

  public static Map<ErrorParameter, String> of(
      ErrorParameter k1, Object v1, ErrorParameter k2, Object v2) {
    return Collections.unmodifiableMap(
        with(with(new EnumMap<>(ErrorParameter.class), k1, v1), k2, v2));
  }

  public static Map<ErrorParameter, String> of(
      ErrorParameter k1, Object v1, ErrorParameter k2, Object v2, ErrorParameter k3, Object v3) {
    return Collections.unmodifiableMap(
        with(with(with(new EnumMap<>(ErrorParameter.class), k1, v1), k2, v2), k3, v3));
  }

  private static Map<ErrorParameter, String> with(
      Map<ErrorParameter, String> facts, ErrorParameter key, Object value) {
    facts.put(key, Objects.toString(value, ""));
    return facts;
  }
}
