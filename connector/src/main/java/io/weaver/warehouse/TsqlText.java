package io.weaver.warehouse;

import java.util.ArrayList;
import java.util.List;

/**
 * Generated T-SQL as indented lines: what the procedure generators share, so that every batch reads
 * the same (four spaces per {@code BEGIN}, one statement or clause per line).
 */
abstract class TsqlText {
  private final List<String> lines = new ArrayList<>();
  private int indent;

  /** The text so far, one trailing newline. */
  final String text() {
    return String.join("\n", lines) + "\n";
  }

  final void comment(String text) {
    line("-- " + text);
  }

  final void begin() {
    line("BEGIN");
    indent++;
  }

  final void end() {
    indent--;
    line("END;");
  }

  /** The current indent, for continuation lines inside one statement. */
  final String pad() {
    return "    ".repeat(indent);
  }

  final void line(String text) {
    lines.add(pad() + text);
  }

  /** A multi-line statement, each of its lines at the current indent. */
  final void block(String text) {
    for (String l : text.split("\n", -1)) {
      lines.add(l.isBlank() ? "" : pad() + l.stripTrailing());
    }
  }
}
