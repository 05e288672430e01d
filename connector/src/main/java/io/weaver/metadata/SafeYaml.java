package io.weaver.metadata;

import io.weaver.findings.RuleIds;
import io.weaver.findings.SourcePos;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads header YAML safely. Only the composer runs (it builds a node graph and never constructs a
 * Java object), so tags such as {@code !!java.lang.Runtime} cannot instantiate anything; they are
 * refused here with a finding. Size, nesting, aliases and the number of visited nodes are bounded,
 * so an alias bomb or a huge document fails fast with a clear message. Duplicate keys are kept (in
 * order) so that the caller can report them with the rule that fits the key.
 */
public final class SafeYaml {
  /** Largest header accepted, in characters. */
  static final int MAX_CHARS = 256 * 1024;

  static final int MAX_ALIASES = 20;
  static final int MAX_DEPTH = 40;

  /** The message when nesting passes {@link #MAX_DEPTH} (or the composer's stack gives out). */
  private static final String TOO_DEEP = "YAML is nested too deeply";

  /** Nodes visited while converting; aliases re-visit nodes, so this bounds expansion too. */
  static final int MAX_NODES = 20_000;

  private static final Set<Tag> SCALAR_TAGS =
      Set.of(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.NULL, Tag.TIMESTAMP);

  private final int firstLine;
  private final int firstColumn;
  private int visited;

  private SafeYaml(int firstLine, int firstColumn) {
    this.firstLine = firstLine;
    this.firstColumn = firstColumn;
  }

  /** The parsed document, or why it cannot be read. Exactly one side is non-null. */
  public record Result(YamlNode node, HeaderError error) {}

  /**
   * Parses YAML text that starts at {@code firstLine}/{@code firstColumn} of its file (1-based), so
   * that node positions are file positions.
   */
  public static Result parse(String text, int firstLine, int firstColumn) {
    SafeYaml reader = new SafeYaml(firstLine, firstColumn);
    if (text.length() > MAX_CHARS) {
      return reader.fail(
          null, "the header is " + text.length() + " characters; at most " + MAX_CHARS + " fit");
    }
    Node root;
    try {
      root = new Yaml(options()).compose(new StringReader(text));
    } catch (MarkedYAMLException e) {
      String problem = e.getProblem() == null ? e.getMessage() : e.getProblem();
      return reader.fail(e.getProblemMark(), "YAML does not parse: " + problem);
    } catch (YAMLException e) {
      return reader.fail(null, "YAML does not parse: " + e.getMessage());
    } catch (StackOverflowError e) {
      return reader.fail(null, TOO_DEEP);
    }
    if (root == null) {
      return reader.fail(null, "the header is empty; it must be a YAML mapping of keys");
    }
    try {
      YamlNode node = reader.convert(root, 0);
      if (!(node instanceof YamlNode.Mapping)) {
        return new Result(
            null,
            new HeaderError(
                RuleIds.HEADER_INVALID,
                node.pos(),
                "the header is " + node.describe() + "; it must be a YAML mapping of keys"));
      }
      return new Result(node, null);
    } catch (Refused e) {
      return new Result(null, new HeaderError(RuleIds.HEADER_INVALID, e.pos, e.getMessage()));
    }
  }

  private static LoaderOptions options() {
    LoaderOptions options = new LoaderOptions();
    options.setMaxAliasesForCollections(MAX_ALIASES);
    options.setAllowRecursiveKeys(false);
    options.setNestingDepthLimit(MAX_DEPTH);
    options.setCodePointLimit(MAX_CHARS * 2);
    options.setProcessComments(false);
    return options;
  }

  private Result fail(Mark mark, String message) {
    return new Result(null, new HeaderError(RuleIds.HEADER_INVALID, pos(mark), message));
  }

  private YamlNode convert(Node node, int depth) {
    if (++visited > MAX_NODES) {
      throw new Refused(
          pos(node.getStartMark()),
          "the header expands to more than " + MAX_NODES + " values (aliases?); simplify it");
    }
    if (depth > MAX_DEPTH) {
      throw new Refused(pos(node.getStartMark()), TOO_DEEP);
    }
    SourcePos pos = pos(node.getStartMark());
    if (node instanceof ScalarNode scalar) {
      return new YamlNode.Scalar(scalar.getValue(), scalarType(scalar), pos);
    }
    if (node instanceof SequenceNode sequence) {
      requireTag(node, Tag.SEQ);
      List<YamlNode> items = new ArrayList<>();
      for (Node item : sequence.getValue()) {
        items.add(convert(item, depth + 1));
      }
      return new YamlNode.Sequence(List.copyOf(items), pos);
    }
    MappingNode mapping = (MappingNode) node;
    requireTag(node, Tag.MAP);
    List<YamlNode.Entry> entries = new ArrayList<>();
    for (NodeTuple tuple : mapping.getValue()) {
      YamlNode key = convert(tuple.getKeyNode(), depth + 1);
      if (!(key instanceof YamlNode.Scalar scalarKey)) {
        throw new Refused(key.pos(), "a key must be plain text, not " + key.describe());
      }
      entries.add(
          new YamlNode.Entry(
              scalarKey.text(), key.pos(), convert(tuple.getValueNode(), depth + 1)));
    }
    return new YamlNode.Mapping(List.copyOf(entries), pos);
  }

  private void requireTag(Node node, Tag expected) {
    if (!node.getTag().equals(expected)) {
      throw new Refused(pos(node.getStartMark()), tagMessage(node.getTag()));
    }
  }

  private YamlNode.ScalarType scalarType(ScalarNode scalar) {
    Tag tag = scalar.getTag();
    if (!SCALAR_TAGS.contains(tag)) {
      throw new Refused(pos(scalar.getStartMark()), tagMessage(tag));
    }
    if (tag.equals(Tag.INT)) {
      return YamlNode.ScalarType.INT;
    }
    if (tag.equals(Tag.FLOAT)) {
      return YamlNode.ScalarType.FLOAT;
    }
    if (tag.equals(Tag.BOOL)) {
      return YamlNode.ScalarType.BOOL;
    }
    if (tag.equals(Tag.NULL)) {
      return YamlNode.ScalarType.NULL;
    }
    return YamlNode.ScalarType.STRING;
  }

  private static String tagMessage(Tag tag) {
    return "YAML tag '"
        + tag.getValue()
        + "' is not allowed in a header; write plain text, numbers, booleans, lists and mappings";
  }

  private SourcePos pos(Mark mark) {
    if (mark == null) {
      return new SourcePos(firstLine, firstColumn);
    }
    int line = firstLine + mark.getLine();
    int column = mark.getLine() == 0 ? firstColumn + mark.getColumn() : mark.getColumn() + 1;
    return new SourcePos(line, column);
  }

  /** Internal signal: the document is refused at a position. */
  private static final class Refused extends RuntimeException {
    private final transient SourcePos pos;

    Refused(SourcePos pos, String message) {
      super(message, null, false, false);
      this.pos = pos;
    }
  }
}
