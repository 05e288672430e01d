package io.weaver.session;

import java.util.Map;
import java.util.Optional;

/**
 * One source of Weaver settings, keyed by the Spark conf names of {@link WeaverConf}. The session
 * conf is one layer; {@code weaver.yaml} at the workspace root will be another, consulted after the
 * session conf and before the defaults.
 */
@FunctionalInterface
public interface ConfLayer {
  /** A layer with no settings: what {@code weaver.yaml} contributes until it is read. */
  ConfLayer EMPTY = key -> Optional.empty();

  Optional<String> get(String key);

  /** All keys of the layer starting with {@code prefix}; empty unless the layer can list. */
  default Map<String, String> withPrefix(String prefix) {
    return Map.of();
  }

  static ConfLayer of(Map<String, String> values) {
    Map<String, String> copy = Map.copyOf(values);
    return new ConfLayer() {
      @Override
      public Optional<String> get(String key) {
        return Optional.ofNullable(copy.get(key)).filter(v -> !v.isBlank());
      }

      @Override
      public Map<String, String> withPrefix(String prefix) {
        Map<String, String> out = new java.util.TreeMap<>();
        copy.forEach(
            (k, v) -> {
              if (k.startsWith(prefix)) {
                out.put(k, v);
              }
            });
        return out;
      }
    };
  }
}
