package io.weaver.metadata.python;

import io.weaver.findings.SourcePos;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A line-level scanner for Python source: it blanks out strings and comments (so that a {@code
 * class} inside a docstring never counts), joins bracketed continuation lines, then reads {@code
 * class} statements at column 0 and {@code def}/{@code async def} statements one indentation level
 * inside them. It does not execute or fully parse Python; it finds what Check asks about.
 */
public final class PythonScanner {
  private static final Pattern CLASS =
      Pattern.compile("^class\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*(?:\\((.*)\\))?\\s*:");
  private static final Pattern DEF =
      Pattern.compile("^(async\\s+)?def\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*\\((.*)\\)\\s*(->.*)?:");

  private PythonScanner() {}

  /** Scans Python source text. */
  public static PythonModule scan(String source) {
    List<LogicalLine> lines = logicalLines(blankStringsAndComments(source));
    List<PythonModule.PythonClass> classes = new ArrayList<>();
    String className = null;
    List<String> bases = List.of();
    SourcePos classPos = null;
    List<PythonModule.Method> methods = new ArrayList<>();
    int bodyIndent = -1;
    for (LogicalLine line : lines) {
      String text = line.text();
      int indent = indentOf(text);
      String stripped = text.strip();
      if (stripped.isEmpty()) {
        continue;
      }
      if (indent == 0) {
        if (className != null) {
          classes.add(
              new PythonModule.PythonClass(className, bases, List.copyOf(methods), classPos));
          className = null;
        }
        Matcher m = CLASS.matcher(stripped);
        if (m.find()) {
          className = m.group(1);
          bases = m.group(2) == null ? List.of() : splitArguments(m.group(2));
          classPos = new SourcePos(line.line(), 1);
          methods = new ArrayList<>();
          bodyIndent = -1;
        }
        continue;
      }
      if (className == null) {
        continue;
      }
      if (bodyIndent < 0) {
        bodyIndent = indent;
      }
      if (indent == bodyIndent) {
        Matcher m = DEF.matcher(stripped);
        if (m.find()) {
          methods.add(
              new PythonModule.Method(
                  m.group(2),
                  splitArguments(m.group(3)),
                  m.group(1) != null,
                  new SourcePos(line.line(), indent + 1)));
        }
      }
    }
    if (className != null) {
      classes.add(new PythonModule.PythonClass(className, bases, List.copyOf(methods), classPos));
    }
    return new PythonModule(List.copyOf(classes));
  }

  private record LogicalLine(String text, int line) {}

  /** Replaces string contents and comments by spaces, keeping line breaks and quotes. */
  static String blankStringsAndComments(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (c == '#') {
        while (i < n && source.charAt(i) != '\n') {
          out.append(' ');
          i++;
        }
      } else if (c == '"' || c == '\'') {
        String quote =
            source.startsWith(String.valueOf(c).repeat(3), i)
                ? String.valueOf(c).repeat(3)
                : String.valueOf(c);
        out.append(quote);
        i += quote.length();
        while (i < n && !source.startsWith(quote, i)) {
          char d = source.charAt(i);
          if (d == '\\' && i + 1 < n) {
            out.append(' ').append(source.charAt(i + 1) == '\n' ? '\n' : ' ');
            i += 2;
            continue;
          }
          if (d == '\n' && quote.length() == 1) {
            break; // unterminated single-quoted string: stop at the line end
          }
          out.append(d == '\n' ? '\n' : ' ');
          i++;
        }
        if (i < n && source.startsWith(quote, i)) {
          out.append(quote);
          i += quote.length();
        }
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** Joins physical lines inside brackets or after a backslash into logical lines. */
  private static List<LogicalLine> logicalLines(String text) {
    List<LogicalLine> lines = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    int depth = 0;
    int startLine = 1;
    int lineNo = 1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
        depth--;
      }
      if (c == '\n') {
        boolean continued =
            depth > 0 || (current.length() > 0 && current.charAt(current.length() - 1) == '\\');
        if (continued) {
          if (current.length() > 0 && current.charAt(current.length() - 1) == '\\') {
            current.setLength(current.length() - 1);
          }
          current.append(' ');
        } else {
          lines.add(new LogicalLine(current.toString(), startLine));
          current.setLength(0);
          startLine = lineNo + 1;
        }
        lineNo++;
      } else if (c != '\r') {
        current.append(c);
      }
    }
    lines.add(new LogicalLine(current.toString(), startLine));
    return lines;
  }

  private static int indentOf(String text) {
    int i = 0;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static List<String> splitArguments(String text) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    StringBuilder current = new StringBuilder();
    for (char c : text.toCharArray()) {
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        depth--;
      }
      if (c == ',' && depth == 0) {
        parts.add(current.toString().strip());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    if (!current.toString().isBlank()) {
      parts.add(current.toString().strip());
    }
    return List.copyOf(parts);
  }
}
