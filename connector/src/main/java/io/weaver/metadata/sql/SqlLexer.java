package io.weaver.metadata.sql;

import io.weaver.metadata.sql.SqlToken.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The character-level scanner behind {@link SqlTokenizer}. It keeps the tokens found before a
 * syntax error so that statement analysis can still report what precedes it.
 */
final class SqlLexer {
  private static final Set<String> THREE_CHAR_SYMBOLS = Set.of("<=>");
  private static final Set<String> TWO_CHAR_SYMBOLS =
      Set.of("<=", ">=", "<>", "!=", "==", "||", "::", "->", "=>", "!<", "!>");
  // T-SQL compound assignment (SET @x += 1, SELECT @x += 1); never valid Spark SQL.
  private static final Set<String> TSQL_ASSIGNMENTS =
      Set.of("+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=");

  private final int[] cps;
  private final SqlDialect dialect;
  private final List<SqlToken> tokens = new ArrayList<>();
  private int pos;
  private int line;
  private int column;

  SqlLexer(String text, SqlDialect dialect, int firstLine, int firstColumn) {
    this.cps = text.codePoints().toArray();
    this.dialect = dialect;
    this.line = firstLine;
    this.column = firstColumn;
  }

  /** Tokens found so far: all of them after {@link #run} returns, a prefix after it throws. */
  List<SqlToken> tokens() {
    return tokens;
  }

  void run() {
    while (pos < cps.length) {
      int c = peek(0);
      if (Character.isWhitespace(c)) {
        advance();
      } else if (c == '-' && peek(1) == '-') {
        while (pos < cps.length && peek(0) != '\n') {
          advance();
        }
      } else if (c == '/' && peek(1) == '*') {
        skipBlockComment();
      } else {
        scanToken(c);
      }
    }
  }

  private void scanToken(int c) {
    int startPos = pos;
    int startLine = line;
    int startColumn = column;
    Kind kind = dialect == SqlDialect.SPARK ? scanSpark(c) : scanTsql(c);
    if (kind == null) {
      kind = scanCommon(c);
    }
    String text = new String(cps, startPos, pos - startPos);
    tokens.add(new SqlToken(kind, text, startLine, startColumn));
  }

  /** Dialect-specific literals and identifiers; null when the character starts none of them. */
  private Kind scanSpark(int c) {
    int next = peek(1);
    if ((c == 'r' || c == 'R') && (next == '\'' || next == '"')) {
      advance();
      quoted(peek(0), false, false, "string literal");
      return Kind.STRING;
    }
    if ((c == 'x' || c == 'X') && next == '\'') {
      advance();
      quoted('\'', true, false, "string literal");
      return Kind.STRING;
    }
    if (c == '\'' || c == '"') {
      quoted(c, true, false, "string literal");
      return Kind.STRING;
    }
    if (c == '`') {
      quoted('`', false, true, "quoted identifier");
      return Kind.QUOTED_IDENTIFIER;
    }
    return null;
  }

  private Kind scanTsql(int c) {
    if ((c == 'n' || c == 'N') && peek(1) == '\'') {
      advance();
      quoted('\'', false, true, "string literal");
      return Kind.STRING;
    }
    if (c == '\'') {
      quoted('\'', false, true, "string literal");
      return Kind.STRING;
    }
    if (c == '"') {
      quoted('"', false, true, "quoted identifier");
      return Kind.QUOTED_IDENTIFIER;
    }
    if (c == '[') {
      quotedUntil(']', "quoted identifier");
      return Kind.QUOTED_IDENTIFIER;
    }
    if (c == '@' && (isWordPart(peek(1)) || (peek(1) == '@' && isWordPart(peek(2))))) {
      advance();
      while (peek(0) == '@' || isWordPart(peek(0))) {
        advance();
      }
      return Kind.VARIABLE;
    }
    if (c == '#' && (isWordPart(peek(1)) || peek(1) == '#')) {
      while (peek(0) == '#' || isWordPart(peek(0))) {
        advance();
      }
      return Kind.WORD;
    }
    return null;
  }

  private Kind scanCommon(int c) {
    if (Character.isDigit(c) || (c == '.' && Character.isDigit(peek(1)))) {
      scanNumber();
      return Kind.NUMBER;
    }
    if (Character.isLetter(c) || c == '_') {
      while (isWordPart(peek(0))) {
        advance();
      }
      return Kind.WORD;
    }
    if (c == ';') {
      advance();
      return Kind.SEMICOLON;
    }
    String three = lookahead(3);
    String two = lookahead(2);
    int length = 1;
    if (THREE_CHAR_SYMBOLS.contains(three)) {
      length = 3;
    } else if (TWO_CHAR_SYMBOLS.contains(two)
        || (dialect == SqlDialect.TSQL && TSQL_ASSIGNMENTS.contains(two))) {
      length = 2;
    }
    for (int i = 0; i < length; i++) {
      advance();
    }
    return Kind.SYMBOL;
  }

  private void scanNumber() {
    while (Character.isDigit(peek(0))) {
      advance();
    }
    if (peek(0) == '.') {
      advance();
      while (Character.isDigit(peek(0))) {
        advance();
      }
    }
    boolean signedExponent = (peek(1) == '+' || peek(1) == '-') && Character.isDigit(peek(2));
    if ((peek(0) == 'e' || peek(0) == 'E') && (Character.isDigit(peek(1)) || signedExponent)) {
      advance();
      advance();
    }
    // Type suffixes (10L, 1.5BD) and T-SQL binary literals (0x1F) stay part of the number.
    while (isWordPart(peek(0))) {
      advance();
    }
  }

  /**
   * Consumes a literal delimited by {@code quote} on both sides. Backslash escapes apply when
   * {@code backslash}; a doubled quote stands for one quote when {@code doubled}.
   */
  private void quoted(int quote, boolean backslash, boolean doubled, String what) {
    int startLine = line;
    int startColumn = column;
    String opener = new String(Character.toChars(quote));
    advance();
    while (true) {
      if (pos >= cps.length) {
        throw unterminated(what, opener, startLine, startColumn);
      }
      int c = peek(0);
      if (backslash && c == '\\' && pos + 1 < cps.length) {
        advance();
        advance();
      } else if (c == quote) {
        advance();
        if (!(doubled && peek(0) == quote)) {
          return;
        }
        advance();
      } else {
        advance();
      }
    }
  }

  /** A T-SQL bracketed identifier: {@code ]]} inside stands for {@code ]}. */
  private void quotedUntil(int close, String what) {
    int startLine = line;
    int startColumn = column;
    advance();
    while (true) {
      if (pos >= cps.length) {
        throw unterminated(what, "[", startLine, startColumn);
      }
      if (peek(0) == close) {
        advance();
        if (peek(0) != close) {
          return;
        }
      }
      advance();
    }
  }

  /** Both dialects nest block comments: Spark's lexer and SQL Server's both count depth. */
  private void skipBlockComment() {
    int startLine = line;
    int startColumn = column;
    int depth = 0;
    do {
      if (pos >= cps.length) {
        throw new SqlSyntaxException(
            "Unterminated block comment: the /* opened here is never closed with */",
            startLine,
            startColumn);
      }
      if (peek(0) == '/' && peek(1) == '*') {
        depth++;
        advance();
      } else if (peek(0) == '*' && peek(1) == '/') {
        depth--;
        advance();
      }
      advance();
    } while (depth > 0);
  }

  private static SqlSyntaxException unterminated(
      String what, String opener, int startLine, int startColumn) {
    return new SqlSyntaxException(
        "Unterminated " + what + ": the " + opener + " opened here is never closed",
        startLine,
        startColumn);
  }

  private boolean isWordPart(int c) {
    if (c < 0) {
      return false;
    }
    if (Character.isLetterOrDigit(c) || c == '_') {
      return true;
    }
    return dialect == SqlDialect.TSQL && (c == '$' || c == '#' || c == '@');
  }

  private String lookahead(int length) {
    int end = Math.min(cps.length, pos + length);
    return new String(cps, pos, end - pos);
  }

  private int peek(int ahead) {
    int i = pos + ahead;
    return i < cps.length ? cps[i] : -1;
  }

  private void advance() {
    int c = cps[pos++];
    if (c == '\n' || (c == '\r' && peek(0) != '\n')) {
      line++;
      column = 1;
    } else {
      column++;
    }
  }
}
