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

  /**
   * The head every generated procedure starts with: {@code CREATE OR ALTER PROCEDURE} with its
   * parameters, then inside its {@code BEGIN} the settings that make any error roll the whole call
   * back, the Table's catalogue id and the call's start time. The caller closes it with {@link
   * #end}.
   */
  final void procedure(String name, String tableId, String... parameters) {
    line("CREATE OR ALTER PROCEDURE " + name);
    for (int i = 0; i < parameters.length; i++) {
      line("    " + parameters[i] + (i + 1 < parameters.length ? "," : ""));
    }
    line("AS");
    begin();
    line("SET NOCOUNT ON;");
    line("SET XACT_ABORT ON;");
    line("DECLARE @weaver_table_id varchar(300) = " + TsqlNames.literal(tableId) + ";");
    line("DECLARE @weaver_started_at datetime2(6) = SYSUTCDATETIME();");
  }

  /** The text so far, one trailing newline. */
  final String text() {
    return String.join("\n", lines) + "\n";
  }

  /** A {@code --} comment line; the text goes through {@link TsqlNames#comment}. */
  final void comment(String text) {
    line("-- " + TsqlNames.comment(text));
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
