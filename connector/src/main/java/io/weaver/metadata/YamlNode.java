package io.weaver.metadata;

import io.weaver.findings.SourcePos;
import java.util.List;
import java.util.Optional;

/**
 * A header's YAML, reduced to the three shapes a header may hold. Every node knows where it was
 * written in the source file, so findings can point at the offending key.
 */
public sealed interface YamlNode {

  SourcePos pos();

  /** A human word for the node's shape, used in messages ("a list", "text", …). */
  String describe();

  /** A scalar: its text as written and the type YAML resolved it to. */
  record Scalar(String text, ScalarType type, SourcePos pos) implements YamlNode {
    @Override
    public String describe() {
      return switch (type) {
        case NULL -> "an empty value";
        case BOOL -> "the boolean " + text;
        case INT -> "the number " + text;
        case FLOAT -> "the number " + text;
        case STRING -> "the text '" + text + "'";
      };
    }
  }

  /** A mapping, keys in authored order (duplicates are rejected when it is built). */
  record Mapping(List<Entry> entries, SourcePos pos) implements YamlNode {
    public Optional<Entry> get(String key) {
      return entries.stream().filter(e -> e.key().equals(key)).findFirst();
    }

    @Override
    public String describe() {
      return "a mapping";
    }
  }

  /** One key of a mapping: the key text, where the key was written, and its value. */
  record Entry(String key, SourcePos keyPos, YamlNode value) {}

  /** A sequence. */
  record Sequence(List<YamlNode> items, SourcePos pos) implements YamlNode {
    @Override
    public String describe() {
      return "a list";
    }
  }

  /** What YAML resolved a plain or quoted scalar to. */
  enum ScalarType {
    STRING,
    INT,
    FLOAT,
    BOOL,
    NULL
  }
}
