package io.weaver.sql.parser;

import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a statement is Weaver's: it must start (after whitespace and comments) with one
 * of the verbs below followed by the word {@code WEAVER}. Anything else, including {@code DESCRIBE
 * weaver} or {@code RESTORE weaver TO ...} for a table that happens to be called {@code weaver},
 * belongs to Spark or Delta.
 */
final class StatementClaim {
  private static final Set<String> VERBS =
      Set.of("CHECK", "BUILD", "PLAN", "LOAD", "TEST", "SHOW", "DESCRIBE", "RESTORE", "PUBLISH");

  /** Verbs whose Spark/Delta statements accept a bare table name right after the verb. */
  private static final Set<String> TABLE_VERBS = Set.of("DESCRIBE", "RESTORE");

  private final String sql;
  private int pos;

  private StatementClaim(String sql) {
    this.sql = sql;
  }

  /** True when {@code sql} is a Weaver statement. */
  static boolean isWeaverStatement(String sql) {
    StatementClaim scan = new StatementClaim(sql);
    String verb = scan.nextWord();
    if (!VERBS.contains(verb) || !"WEAVER".equals(scan.nextWord())) {
      return false;
    }
    if (!TABLE_VERBS.contains(verb)) {
      return true;
    }
    // "DESCRIBE weaver [col]" and "RESTORE weaver TO ..." name a table; ours continue with TABLE
    // (or, DESCRIBE WEAVER LOAD TABLE, with LOAD TABLE: "DESCRIBE weaver load" is a column).
    String next = scan.nextWord();
    return "TABLE".equals(next)
        || (verb.equals("RESTORE") && "ITEM".equals(next))
        || (verb.equals("DESCRIBE") && "LOAD".equals(next) && "TABLE".equals(scan.nextWord()));
  }

  /**
   * The next bare word in upper case, or "" when the next token is not a bare word (a quoted name,
   * a dotted name such as {@code weaver.t}, punctuation, or the end).
   */
  private String nextWord() {
    skipSpaceAndComments();
    int start = pos;
    while (pos < sql.length() && isWordChar(sql.charAt(pos))) {
      pos++;
    }
    if (pos == start || pos < sql.length() && !endsWord(sql.charAt(pos))) {
      return "";
    }
    return sql.substring(start, pos).toUpperCase(Locale.ROOT);
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  private boolean endsWord(char c) {
    return Character.isWhitespace(c)
        || c == ';'
        || sql.startsWith("--", pos)
        || sql.startsWith("/*", pos);
  }

  private void skipSpaceAndComments() {
    while (pos < sql.length()) {
      if (Character.isWhitespace(sql.charAt(pos))) {
        pos++;
      } else if (sql.startsWith("--", pos)) {
        int eol = sql.indexOf('\n', pos);
        pos = eol < 0 ? sql.length() : eol + 1;
      } else if (sql.startsWith("/*", pos)) {
        skipBracketedComment();
      } else {
        return;
      }
    }
  }

  /** Skips a possibly nested {@code /* ... *}{@code /} comment, as Spark's lexer does. */
  private void skipBracketedComment() {
    int depth = 0;
    while (pos < sql.length()) {
      if (sql.startsWith("/*", pos)) {
        depth++;
        pos += 2;
      } else if (sql.startsWith("*/", pos)) {
        depth--;
        pos += 2;
        if (depth == 0) {
          return;
        }
      } else {
        pos++;
      }
    }
  }
}
