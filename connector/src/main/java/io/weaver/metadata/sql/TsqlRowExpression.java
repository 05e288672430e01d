package io.weaver.metadata.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a T-SQL boolean expression over one row refers to, read from its tokens (there is no T-SQL
 * parser on the JVM): the columns it names, and what cannot belong to a per-row rule — aggregates,
 * {@code OVER}, subqueries, statement separators — plus the problems visible without a grammar
 * (unbalanced parentheses, unterminated strings or quoted identifiers).
 *
 * <p>Conservative by design: a word is a column reference only when it is not followed by {@code (}
 * (a function), not a keyword or niladic function, not a type name (after {@code AS} in {@code
 * CAST}, the first argument of {@code CONVERT}), not a date part (the first argument of {@code
 * DATEADD} and its kin) and not a collation name; anything else the engine decides (a rule that is
 * not boolean when Build creates the load procedure, types and values at load). A variable is never
 * a column: it is reported, since a rule reads only its row.
 *
 * @param columns the column references, each as its name parts ({@code [a]} → {@code a}; {@code
 *     x.a} → {@code x, a})
 * @param aggregates aggregate functions called, as written
 * @param windows window uses, as {@code f(…) OVER}
 * @param subqueries {@code SELECT}s, with the keyword before their parenthesis when there is one
 * @param separators {@code ;} and {@code GO}, as written
 * @param variables {@code @x} and {@code @@x}, each with where it is in the rule: a rule is placed
 *     inside the load procedure, where a variable is the procedure's (or undeclared), never the
 *     row's
 * @param problems tokens that cannot be read as one expression, each with where it is in the rule
 */
public record TsqlRowExpression(
    List<Reference> columns,
    List<String> aggregates,
    List<String> windows,
    List<String> subqueries,
    List<String> separators,
    List<String> variables,
    List<String> problems) {

  /**
   * One column reference.
   *
   * @param parts its name parts, quotes removed
   * @param where where it is in the rule ("at character 3 of the rule")
   */
  public record Reference(List<String> parts, String where) {}

  private static final Set<String> AGGREGATES =
      Set.of(
          "COUNT",
          "COUNT_BIG",
          "SUM",
          "AVG",
          "MIN",
          "MAX",
          "STRING_AGG",
          "STDEV",
          "STDEVP",
          "VAR",
          "VARP",
          "GROUPING",
          "GROUPING_ID",
          "CHECKSUM_AGG",
          "APPROX_COUNT_DISTINCT",
          "APPROX_PERCENTILE_CONT",
          "APPROX_PERCENTILE_DISC");

  /** Words that are never a column of a row expression: operators, clauses, niladic functions. */
  private static final Set<String> KEYWORDS =
      Set.of(
          "AND",
          "OR",
          "NOT",
          "IS",
          "NULL",
          "IN",
          "LIKE",
          "BETWEEN",
          "ESCAPE",
          "CASE",
          "WHEN",
          "THEN",
          "ELSE",
          "END",
          "AS",
          "EXISTS",
          "ALL",
          "ANY",
          "SOME",
          "DISTINCT",
          "FROM",
          "COLLATE",
          "CURRENT_TIMESTAMP",
          "CURRENT_USER",
          "CURRENT_DATE",
          "SESSION_USER",
          "SYSTEM_USER",
          "USER",
          "OVER",
          "PARTITION",
          "ORDER",
          "BY",
          "ASC",
          "DESC",
          "ROWS",
          "RANGE",
          "UNBOUNDED",
          "PRECEDING",
          "FOLLOWING",
          "WITHIN",
          "GROUP",
          "WHERE",
          "HAVING",
          "UNION",
          "EXCEPT",
          "INTERSECT",
          "TOP",
          "PERCENT",
          "WITH",
          "LEADING",
          "TRAILING",
          "BOTH",
          "FOR",
          "OUTPUT",
          "INTO",
          "ON",
          "JOIN",
          "INNER",
          "LEFT",
          "RIGHT",
          "FULL",
          "OUTER",
          "CROSS",
          "APPLY",
          "DEFAULT",
          "USING",
          "BEGIN");

  /** Functions whose first argument is a type ({@code CONVERT(varchar(20), x)}). */
  private static final Set<String> TYPE_FIRST = Set.of("CONVERT", "TRY_CONVERT");

  /** Functions whose first argument is a date part ({@code DATEADD(day, 1, x)}). */
  private static final Set<String> DATE_PART_FIRST =
      Set.of(
          "DATEADD",
          "DATEDIFF",
          "DATEDIFF_BIG",
          "DATEPART",
          "DATENAME",
          "DATETRUNC",
          "DATE_BUCKET");

  private static final Set<String> TYPE_AFTER_AS = Set.of("CAST", "TRY_CAST");

  /**
   * Reads {@code rule}. A rule that is not even tokens (an unterminated string or quoted
   * identifier) has that one problem and nothing else.
   */
  public static TsqlRowExpression of(String rule) {
    List<SqlToken> tokens;
    try {
      tokens = SqlTokenizer.tokenize(rule, SqlDialect.TSQL, 1, 1);
    } catch (SqlSyntaxException e) {
      return new TsqlRowExpression(
          List.of(),
          List.of(),
          List.of(),
          List.of(),
          List.of(),
          List.of(),
          List.of(
              e.getMessage().replaceFirst("\\s*\\(line \\d+, column \\d+\\)$", "")
                  + " "
                  + where(e.line(), e.column())));
    }
    return new Reader(tokens).read();
  }

  /** Whether nothing in the rule stops it from being a per-row expression. */
  public boolean rowLocal() {
    return aggregates.isEmpty()
        && windows.isEmpty()
        && subqueries.isEmpty()
        && separators.isEmpty()
        && variables.isEmpty()
        && problems.isEmpty();
  }

  private static String where(int line, int column) {
    return line == 1
        ? "at character " + column + " of the rule"
        : "at line " + line + ", character " + column + " of the rule";
  }

  private static String where(SqlToken token) {
    return where(token.line(), token.column());
  }

  /** One pass over the tokens. */
  private static final class Reader {
    private final List<SqlToken> tokens;
    private final List<Reference> columns = new ArrayList<>();
    private final List<String> aggregates = new ArrayList<>();
    private final List<String> windows = new ArrayList<>();
    private final List<String> subqueries = new ArrayList<>();
    private final List<String> separators = new ArrayList<>();
    private final List<String> variables = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    Reader(List<SqlToken> tokens) {
      this.tokens = tokens;
    }

    TsqlRowExpression read() {
      if (tokens.isEmpty()) {
        problems.add("the rule is empty");
      }
      parentheses();
      int i = 0;
      while (i < tokens.size()) {
        i = token(i);
      }
      return new TsqlRowExpression(
          List.copyOf(columns),
          List.copyOf(aggregates),
          List.copyOf(windows),
          List.copyOf(subqueries),
          List.copyOf(separators),
          List.copyOf(variables),
          List.copyOf(problems));
    }

    private void parentheses() {
      List<SqlToken> open = new ArrayList<>();
      for (SqlToken token : tokens) {
        if (token.isSymbol("(")) {
          open.add(token);
        } else if (token.isSymbol(")")) {
          if (open.isEmpty()) {
            problems.add("')' " + where(token) + " closes no '('");
          } else {
            open.remove(open.size() - 1);
          }
        }
      }
      for (SqlToken token : open) {
        problems.add("'(' " + where(token) + " is not closed");
      }
    }

    /** Reads the token at {@code i}; returns the index of the next one to read. */
    private int token(int i) {
      SqlToken token = tokens.get(i);
      if (token.kind() == SqlToken.Kind.SEMICOLON) {
        separators.add("';' " + where(token));
        return i + 1;
      }
      if (token.kind() == SqlToken.Kind.VARIABLE) {
        variables.add("'" + token.text() + "' " + where(token));
        return i + 1;
      }
      if (!token.isIdentifier()) {
        return i + 1;
      }
      String upper = token.kind() == SqlToken.Kind.WORD ? token.upper() : null;
      if ("GO".equals(upper)) {
        separators.add("'" + token.text() + "' " + where(token));
        return i + 1;
      }
      if ("SELECT".equals(upper)) {
        subqueries.add(subquery(i));
        return i + 1;
      }
      if ("OVER".equals(upper)) {
        windows.add(window(i));
        return i + 1;
      }
      if ("COLLATE".equals(upper)) {
        return i + 2; // the collation's name
      }
      if ("AT".equals(upper)
          && i + 2 < tokens.size()
          && tokens.get(i + 1).isWord("TIME")
          && tokens.get(i + 2).isWord("ZONE")) {
        return i + 3; // x AT TIME ZONE 'UTC'
      }
      if (upper != null && KEYWORDS.contains(upper)) {
        return i + 1;
      }
      int end = nameEnd(i);
      if (end < tokens.size() && tokens.get(end).isSymbol("(")) {
        return call(i, end);
      }
      List<String> parts = new ArrayList<>();
      for (int j = i; j < end; j += 2) {
        parts.add(tokens.get(j).identifierValue());
      }
      columns.add(new Reference(List.copyOf(parts), where(token)));
      return end;
    }

    /** The index after a dotted name starting at {@code i} ({@code a}, {@code x.[a]}). */
    private int nameEnd(int i) {
      int end = i + 1;
      while (end + 1 < tokens.size()
          && tokens.get(end).isSymbol(".")
          && tokens.get(end + 1).isIdentifier()) {
        end += 2;
      }
      return end;
    }

    /** A function call whose name ends before {@code open}; returns where to read on. */
    private int call(int start, int open) {
      SqlToken name = tokens.get(open - 1);
      String upper = name.kind() == SqlToken.Kind.WORD ? name.upper() : "";
      if (open == start + 1 && AGGREGATES.contains(upper)) {
        aggregates.add(name.text());
      }
      int next = open + 1;
      if (open == start + 1 && (TYPE_FIRST.contains(upper) || DATE_PART_FIRST.contains(upper))) {
        // CONVERT(type[(n)], …) or DATEADD(part, …): the first argument is not a column.
        if (next < tokens.size() && tokens.get(next).kind() == SqlToken.Kind.WORD) {
          next = skipArguments(next + 1);
        }
      } else if (open == start + 1 && TYPE_AFTER_AS.contains(upper)) {
        int as = topLevelAs(open);
        if (as > 0) {
          int close = TokenScan.closingParen(tokens, open);
          // Read what precedes AS; the type after it is skipped.
          int i = next;
          while (i < as) {
            i = token(i);
          }
          return Math.min(close + 1, tokens.size());
        }
      }
      return next;
    }

    /** After a type or date-part word: past its own {@code (n)} if any. */
    private int skipArguments(int i) {
      if (i < tokens.size() && tokens.get(i).isSymbol("(")) {
        return Math.min(TokenScan.closingParen(tokens, i) + 1, tokens.size());
      }
      return i;
    }

    /** The {@code AS} directly inside the parenthesis opened at {@code open}, or -1. */
    private int topLevelAs(int open) {
      int depth = 0;
      for (int i = open; i < tokens.size(); i++) {
        SqlToken token = tokens.get(i);
        if (token.isSymbol("(")) {
          depth++;
        } else if (token.isSymbol(")") && --depth == 0) {
          return -1;
        } else if (depth == 1 && token.isWord("AS")) {
          return i;
        }
      }
      return -1;
    }

    /** {@code f(…) OVER}, or {@code OVER} alone. */
    private String window(int over) {
      if (over > 0 && tokens.get(over - 1).isSymbol(")")) {
        int depth = 0;
        for (int i = over - 1; i > 0; i--) {
          if (tokens.get(i).isSymbol(")")) {
            depth++;
          } else if (tokens.get(i).isSymbol("(") && --depth == 0) {
            SqlToken name = tokens.get(i - 1);
            if (name.isIdentifier()) {
              return name.text() + "(…) OVER " + where(name);
            }
            break;
          }
        }
      }
      return "OVER " + where(tokens.get(over));
    }

    /** {@code (SELECT …)}, {@code IN (SELECT …)} or {@code EXISTS (SELECT …)}. */
    private String subquery(int select) {
      String prefix = "";
      if (select >= 2
          && tokens.get(select - 1).isSymbol("(")
          && tokens.get(select - 2).kind() == SqlToken.Kind.WORD) {
        String before = tokens.get(select - 2).upper();
        if (before.equals("IN") || before.equals("EXISTS")) {
          prefix = before + " ";
        }
      }
      return prefix + "(SELECT …) " + where(tokens.get(select));
    }
  }
}
