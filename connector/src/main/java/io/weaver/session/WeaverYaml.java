package io.weaver.session;

import io.weaver.catalyst.compat.ErrorFacts;
import io.weaver.catalyst.compat.ErrorParameter;
import io.weaver.catalyst.compat.WeaverArgumentException;
import io.weaver.catalyst.compat.WeaverErrorClass;
import io.weaver.metadata.SafeYaml;
import io.weaver.metadata.YamlNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code weaver.yaml} at the workspace root: the same settings as the session conf (spec §13.5),
 * consulted after it. The file is one YAML mapping (safe loader) of setting names — written in
 * full, {@code spark.weaver.item.Reporting.jdbcUrl}, or without the {@code spark.weaver.} prefix —
 * to scalar values. The file is meant to be committed, so it may name credentials only by reference
 * ({@code …passwordEnv: VARIABLE}); a setting that would hold a secret itself is refused.
 */
public final class WeaverYaml {
  public static final String FILE_NAME = "weaver.yaml";
  private static final String PREFIX = WeaverConf.PREFIX;

  private WeaverYaml() {}

  /** The layer of {@code <workspace>/weaver.yaml}; {@link ConfLayer#EMPTY} when there is none. */
  public static ConfLayer read(Path workspace) {
    Path file = workspace.resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      return ConfLayer.EMPTY;
    }
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Parses the file's text; {@code name} is used in every message. */
  public static ConfLayer parse(String text, String name) {
    SafeYaml.Result parsed = SafeYaml.parse(text, 1, 1);
    if (parsed.error() != null) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_SETTINGS_FILE,
          name + ":" + parsed.error().pos().line() + ": " + parsed.error().message(),
          ErrorFacts.of(
              ErrorParameter.FILE, name, ErrorParameter.LINE, parsed.error().pos().line()));
    }
    if (parsed.node() == null) {
      return ConfLayer.EMPTY;
    }
    if (!(parsed.node() instanceof YamlNode.Mapping mapping)) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_SETTINGS_FILE,
          name
              + ": expected a mapping of setting names to values, found "
              + parsed.node().describe(),
          ErrorFacts.of(
              ErrorParameter.FILE, name, ErrorParameter.LINE, parsed.node().pos().line()));
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (YamlNode.Entry e : mapping.entries()) {
      String key = e.key().startsWith(PREFIX) ? e.key() : PREFIX + e.key();
      String where = name + ":" + e.keyPos().line();
      if (!(e.value() instanceof YamlNode.Scalar scalar)) {
        throw new WeaverArgumentException(
            WeaverErrorClass.WEAVER_INVALID_SETTING,
            where
                + ": setting "
                + e.key()
                + " must be a single value, found "
                + e.value().describe(),
            ErrorFacts.of(ErrorParameter.SETTING, key));
      }
      refuseSecret(key, where);
      settings.put(key, scalar.text());
    }
    return ConfLayer.of(settings);
  }

  /**
   * Settings that would hold a credential's value rather than name where it is. Applied to the
   * session conf too (by the Warehouse endpoint), so no layer can carry a password in clear.
   */
  public static void refuseSecret(String key, String where) {
    String last = key.substring(key.lastIndexOf('.') + 1).toLowerCase(java.util.Locale.ROOT);
    if (last.equals("password")
        || last.equals("secret")
        || last.equals("clientsecret")
        || last.equals("accesstoken")
        || last.equals("token")) {
      throw new WeaverArgumentException(
          WeaverErrorClass.WEAVER_INVALID_SETTING,
          where
              + ": setting "
              + key
              + " would hold a credential; name an environment variable that holds it instead ("
              + key
              + "Env: VARIABLE_NAME)",
          ErrorFacts.of(ErrorParameter.SETTING, key));
    }
  }
}
